;; The term scan of src/lexical/terms.ts over UTF-8 bytes, counted by hash (see TermCounter in termCounter.ts).
;; WebAssembly, not JavaScript: a parse worker runs V8 with a raised interrupt budget
;; (src/cli/jitTuning.ts), under which the scan, a loop over every byte of every file, ran
;; interpreted over a worker's first (biggest) file; compiled WebAssembly runs at full speed at once.
;;
;; Memory, laid out by TermCounter: bytes 0..255 classify each byte (0 not a word byte, 1 `_`,
;; 2 upper case, 3 lower case, 4 digit); then the slots of an open-addressing table of 16 bytes
;; each (stamp, hash, index in the counted terms, spare); then the counted hashes and counts
;; (32-bit each); then the text, followed by a 0 byte.
(module
  (memory (export "memory") 1)

  (global $slots (mut i32) (i32.const 0))
  (global $slotMask (mut i32) (i32.const 0))
  (global $shift (mut i32) (i32.const 0))
  (global $stamp (mut i32) (i32.const 0))
  (global $hashes (mut i32) (i32.const 0))
  (global $counts (mut i32) (i32.const 0))
  (global $size (mut i32) (i32.const 0))
  (global $room (mut i32) (i32.const 0))
  (global $full (mut i32) (i32.const 0))

  ;; Starts counting a text's terms, at most `room` of them. A slot holds a term of this text only if it bears `stamp`.
  (func (export "begin") (param $slots i32) (param $slotMask i32) (param $shift i32) (param $stamp i32) (param $hashes i32) (param $counts i32) (param $room i32)
    (global.set $slots (local.get $slots))
    (global.set $slotMask (local.get $slotMask))
    (global.set $shift (local.get $shift))
    (global.set $stamp (local.get $stamp))
    (global.set $hashes (local.get $hashes))
    (global.set $counts (local.get $counts))
    (global.set $room (local.get $room))
    (global.set $size (i32.const 0))
    (global.set $full (i32.const 0)))

  ;; How many distinct terms were counted since begin.
  (func (export "size") (result i32)
    (global.get $size))

  ;; Whether the text had more distinct terms than begin made room for: its counts are incomplete.
  (func (export "full") (result i32)
    (global.get $full))

  ;; Counts the terms of the `length` bytes at `text` (a 0 byte follows them).
  (func (export "scan") (param $text i32) (param $length i32)
    (local $i i32)
    (local $end i32)
    (local.set $i (local.get $text))
    (local.set $end (i32.add (local.get $text) (local.get $length)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (if (i32.load8_u (i32.load8_u (local.get $i)))
          (then (local.set $i (call $word (local.get $i))))
          (else (local.set $i (i32.add (local.get $i) (i32.const 1)))))
        (br $next))))

  ;; Counts the terms of the word at `start`: its parts (split at `_`, at a lower→upper hump, and
  ;; before the last capital of a run followed by a lower-case letter), then the whole word when
  ;; it has more than one. Returns where the word ends.
  (func $word (param $start i32) (result i32)
    (local $i i32)
    (local $code i32)
    (local $kind i32)
    (local $parts i32)
    (local $partStart i32)
    (local $hash i32)
    (local $previous i32)
    (local.set $i (local.get $start))
    (local.set $partStart (local.get $start))
    (local.set $hash (i32.const 0x811c9dc5))
    (block $wordEnd
      (loop $scan
        (local.set $code (i32.load8_u (local.get $i)))
        (local.set $kind (i32.load8_u (local.get $code)))
        ;; Runs of lower-case letters and digits, most of a text's bytes, take this loop alone.
        (if (i32.ge_u (local.get $kind) (i32.const 3))
          (then
            (loop $run
              (local.set $hash (i32.mul (i32.xor (local.get $hash) (local.get $code)) (i32.const 0x01000193)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (local.set $code (i32.load8_u (local.get $i)))
              (local.set $kind (i32.load8_u (local.get $code)))
              (br_if $run (i32.ge_u (local.get $kind) (i32.const 3))))
            (local.set $previous (i32.const 3))))
        (if (i32.eq (local.get $kind) (i32.const 2))
          (then
            (if (i32.and
                  (i32.ne (local.get $i) (local.get $partStart))
                  (i32.or
                    (i32.eq (local.get $previous) (i32.const 3))
                    (i32.and
                      (i32.eq (local.get $previous) (i32.const 2))
                      (i32.eq (i32.load8_u (i32.load8_u (i32.add (local.get $i) (i32.const 1)))) (i32.const 3)))))
              (then
                (call $part (local.get $partStart) (i32.sub (local.get $i) (local.get $partStart)) (local.get $hash))
                (local.set $parts (i32.add (local.get $parts) (i32.const 1)))
                (local.set $partStart (local.get $i))
                (local.set $hash (i32.const 0x811c9dc5))))
            (local.set $hash (i32.mul (i32.xor (local.get $hash) (i32.add (local.get $code) (i32.const 32))) (i32.const 0x01000193)))
            (local.set $previous (i32.const 2))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $scan)))
        ;; `_` or the word's end closes the part.
        (if (i32.gt_u (local.get $i) (local.get $partStart))
          (then
            (call $part (local.get $partStart) (i32.sub (local.get $i) (local.get $partStart)) (local.get $hash))
            (local.set $parts (i32.add (local.get $parts) (i32.const 1)))))
        (br_if $wordEnd (i32.eqz (local.get $kind)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $partStart (local.get $i))
        (local.set $hash (i32.const 0x811c9dc5))
        (local.set $previous (i32.const 1))
        (br $scan)))
    (if (i32.gt_u (local.get $parts) (i32.const 1))
      (then (call $whole (local.get $start) (local.get $i))))
    (local.get $i))

  ;; The word `start..end` lowercased without its `_`s, as one term.
  (func $whole (param $start i32) (param $end i32)
    (local $i i32)
    (local $code i32)
    (local $length i32)
    (local $first i32)
    (local $hash i32)
    (local.set $hash (i32.const 0x811c9dc5))
    (local.set $i (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $code (i32.load8_u (local.get $i)))
        (if (i32.ne (local.get $code) (i32.const 95))
          (then
            (if (i32.eqz (local.get $length)) (then (local.set $first (local.get $code))))
            (local.set $length (i32.add (local.get $length) (i32.const 1)))
            (if (i32.eq (i32.load8_u (local.get $code)) (i32.const 2))
              (then (local.set $code (i32.add (local.get $code) (i32.const 32)))))
            (local.set $hash (i32.mul (i32.xor (local.get $hash) (local.get $code)) (i32.const 0x01000193)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (if (local.get $length)
      (then (call $term (local.get $first) (local.get $length) (local.get $hash)))))

  ;; The part of `length` bytes at `start`, hashed as `hash`.
  (func $part (param $start i32) (param $length i32) (param $hash i32)
    (call $term (i32.load8_u (local.get $start)) (local.get $length) (local.get $hash)))

  ;; Counts a term unless it is too short, longer than MAX_TERM in terms.ts (noise: hashes, base64) or starts with a digit.
  (func $term (param $first i32) (param $length i32) (param $hash i32)
    (if (i32.and
          (i32.and (i32.ge_u (local.get $length) (i32.const 2)) (i32.le_u (local.get $length) (i32.const 40)))
          (i32.ne (i32.load8_u (local.get $first)) (i32.const 4)))
      (then (call $add (local.get $hash)))))

  ;; Counts `hash`: one more if this text has it, else a new term with a count of 1, if there is room.
  (func $add (param $hash i32)
    (local $slot i32)
    (local $at i32)
    (local.set $slot (i32.shr_u (i32.mul (local.get $hash) (i32.const 0x9e3779b1)) (global.get $shift)))
    (loop $probe
      (local.set $at (i32.add (global.get $slots) (i32.shl (local.get $slot) (i32.const 4))))
      (if (i32.ne (i32.load (local.get $at)) (global.get $stamp))
        (then
          (if (i32.eq (global.get $size) (global.get $room))
            (then
              (global.set $full (i32.const 1))
              (return)))
          (i32.store (local.get $at) (global.get $stamp))
          (i32.store offset=4 (local.get $at) (local.get $hash))
          (i32.store offset=8 (local.get $at) (global.get $size))
          (i32.store (i32.add (global.get $hashes) (i32.shl (global.get $size) (i32.const 2))) (local.get $hash))
          (i32.store (i32.add (global.get $counts) (i32.shl (global.get $size) (i32.const 2))) (i32.const 1))
          (global.set $size (i32.add (global.get $size) (i32.const 1)))
          (return)))
      (if (i32.eq (i32.load offset=4 (local.get $at)) (local.get $hash))
        (then
          (local.set $at (i32.add (global.get $counts) (i32.shl (i32.load offset=8 (local.get $at)) (i32.const 2))))
          (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
          (return)))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $slotMask)))
      (br $probe)))
)
