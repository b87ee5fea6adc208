(module
  (memory (export "memory") 1)
  ;; One power iteration of PageRank (src/rank/pageRank.ts), x → next; returns the L1 change. Rank
  ;; flows from each referencer into the names it references, and from each name to its definers:
  ;; one pass over the reference and definer slots, however many file-to-file edges they stand
  ;; for; then along the import links, if any. The sums are made in the order the JavaScript loop
  ;; it replaced made them: the same ranks, bit for bit. Pointers are byte offsets into memory;
  ;; $linkOffsets 0: no links.
  (func (export "iterate")
    (param $fileCount i32) (param $identCount i32) (param $alpha f64)
    (param $x i32) (param $next i32) (param $share i32) (param $inflow i32) (param $p i32)
    (param $outW i32) (param $scales i32) (param $selfW i32)
    (param $refOff i32) (param $refFiles i32) (param $refW i32) (param $defOff i32) (param $defFiles i32)
    (param $linkOffsets i32) (param $linkTargets i32) (param $linkWeight f64)
    (result f64)
    (local $f i32) (local $out f64) (local $dangling f64) (local $xf f64)
    (local $i i32) (local $fd i32) (local $ed i32) (local $r i32) (local $re i32) (local $carried f64) (local $d i32) (local $at i32)
    (local $change f64) (local $value f64) (local $pf f64)
    ;; files: shares
    (local.set $f (i32.const 0))
    (block $done1 (loop $l1
      (br_if $done1 (i32.ge_u (local.get $f) (local.get $fileCount)))
      (local.set $out (f64.load (i32.add (local.get $outW) (i32.shl (local.get $f) (i32.const 3)))))
      (local.set $xf (f64.load (i32.add (local.get $x) (i32.shl (local.get $f) (i32.const 3)))))
      (if (f64.eq (local.get $out) (f64.const 0))
        (then
          (local.set $dangling (f64.add (local.get $dangling) (local.get $xf)))
          (f64.store (i32.add (local.get $share) (i32.shl (local.get $f) (i32.const 3))) (f64.const 0))
          (f64.store (i32.add (local.get $inflow) (i32.shl (local.get $f) (i32.const 3))) (f64.const 0)))
        (else
          (f64.store (i32.add (local.get $share) (i32.shl (local.get $f) (i32.const 3)))
            (f64.div (f64.mul (local.get $xf) (f64.load (i32.add (local.get $scales) (i32.shl (local.get $f) (i32.const 3))))) (local.get $out)))
          (f64.store (i32.add (local.get $inflow) (i32.shl (local.get $f) (i32.const 3)))
            (f64.div (f64.mul (local.get $xf) (f64.load (i32.add (local.get $selfW) (i32.shl (local.get $f) (i32.const 3))))) (local.get $out)))))
      (local.set $f (i32.add (local.get $f) (i32.const 1)))
      (br $l1)))
    ;; idents: carry
    (local.set $i (i32.const 0))
    (block $done2 (loop $l2
      (br_if $done2 (i32.ge_u (local.get $i) (local.get $identCount)))
      (local.set $at (i32.add (local.get $defOff) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $fd (i32.load (local.get $at)))
      (local.set $ed (i32.load offset=4 (local.get $at)))
      (if (i32.ne (local.get $fd) (local.get $ed)) (then
        (local.set $at (i32.add (local.get $refOff) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $r (i32.load (local.get $at)))
        (local.set $re (i32.load offset=4 (local.get $at)))
        (local.set $carried (f64.const 0))
        (block $d3 (loop $l3
          (br_if $d3 (i32.ge_s (local.get $r) (local.get $re)))
          (local.set $carried (f64.add (local.get $carried)
            (f64.mul
              (f64.load (i32.add (local.get $share) (i32.shl (i32.load (i32.add (local.get $refFiles) (i32.shl (local.get $r) (i32.const 2)))) (i32.const 3))))
              (f64.load (i32.add (local.get $refW) (i32.shl (local.get $r) (i32.const 3)))))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $l3)))
        (if (f64.ne (local.get $carried) (f64.const 0)) (then
          (local.set $d (local.get $fd))
          (block $d4 (loop $l4
            (br_if $d4 (i32.ge_s (local.get $d) (local.get $ed)))
            (local.set $at (i32.add (local.get $inflow) (i32.shl (i32.load (i32.add (local.get $defFiles) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
            (f64.store (local.get $at) (f64.add (f64.load (local.get $at)) (local.get $carried)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (br $l4)))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l2)))
    ;; links: each file's share × the link weight into every file it imports
    (if (i32.ne (local.get $linkOffsets) (i32.const 0)) (then
      (local.set $f (i32.const 0))
      (block $done6 (loop $l6
        (br_if $done6 (i32.ge_u (local.get $f) (local.get $fileCount)))
        (local.set $carried (f64.mul (f64.load (i32.add (local.get $share) (i32.shl (local.get $f) (i32.const 3)))) (local.get $linkWeight)))
        (if (f64.ne (local.get $carried) (f64.const 0)) (then
          (local.set $at (i32.add (local.get $linkOffsets) (i32.shl (local.get $f) (i32.const 2))))
          (local.set $d (i32.load (local.get $at)))
          (local.set $ed (i32.load offset=4 (local.get $at)))
          (block $d7 (loop $l7
            (br_if $d7 (i32.ge_s (local.get $d) (local.get $ed)))
            (local.set $r (i32.add (local.get $inflow) (i32.shl (i32.load (i32.add (local.get $linkTargets) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
            (f64.store (local.get $r) (f64.add (f64.load (local.get $r)) (local.get $carried)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (br $l7)))))
        (local.set $f (i32.add (local.get $f) (i32.const 1)))
        (br $l6)))))
    ;; files: next, change
    (local.set $f (i32.const 0))
    (block $done5 (loop $l5
      (br_if $done5 (i32.ge_u (local.get $f) (local.get $fileCount)))
      (local.set $pf (f64.load (i32.add (local.get $p) (i32.shl (local.get $f) (i32.const 3)))))
      (local.set $value (f64.add
        (f64.mul (local.get $alpha) (f64.add (f64.load (i32.add (local.get $inflow) (i32.shl (local.get $f) (i32.const 3)))) (f64.mul (local.get $dangling) (local.get $pf))))
        (f64.mul (f64.sub (f64.const 1) (local.get $alpha)) (local.get $pf))))
      (local.set $change (f64.add (local.get $change) (f64.abs (f64.sub (local.get $value) (f64.load (i32.add (local.get $x) (i32.shl (local.get $f) (i32.const 3))))))))
      (f64.store (i32.add (local.get $next) (i32.shl (local.get $f) (i32.const 3))) (local.get $value))
      (local.set $f (i32.add (local.get $f) (i32.const 1)))
      (br $l5)))
    (local.get $change)))
