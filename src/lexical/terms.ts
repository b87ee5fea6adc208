import { TermCounter } from './termCounter.js';

/**
 * The terms lexical ranking matches, the same at index time (a file's whole text) and at query
 * time (the task's text): runs of letters, digits and `_`, split at `_` and camelCase humps
 * (`HTTPAdapter` → http, adapter), lowercased; a compound also counts whole (`httpadapter`), so
 * an identifier written out matches itself best. Terms are kept as 32-bit hashes: a file's
 * terms are stored with its record and postings are typed arrays.
 */

/** Terms longer than this are noise (hashes, base64, minified names). */
const MAX_TERM = 40;

/** Distinct term hashes with how often each occurs, in order of first occurrence. */
export interface TermCounts {
  hashes: number[];
  counts: number[];
}

/** Calls `emit` with each term of `text`, in order. */
export function forEachTerm(text: string, emit: (term: string) => void): void {
  const length = text.length;
  let at = 0;
  while (at < length) {
    while (at < length && !isWordChar(text.charCodeAt(at))) at++;
    const start = at;
    while (at < length && isWordChar(text.charCodeAt(at))) at++;
    if (at > start) emitWord(text, start, at, emit);
  }
}

function emitWord(text: string, start: number, end: number, emit: (term: string) => void): void {
  let parts = 0;
  let partStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && !isBoundary(text, i, partStart)) continue;
    if (i > partStart) {
      emitTerm(text.slice(partStart, i), emit);
      parts++;
    }
    partStart = text.charCodeAt(i) === UNDERSCORE ? i + 1 : i;
  }
  if (parts > 1) emitTerm(text.slice(start, end).replaceAll('_', ''), emit);
}

/** Whether a new part starts at `i`: at `_`, at a lower→upper hump, and before the last capital of a run followed by a lower-case letter. */
function isBoundary(text: string, i: number, partStart: number): boolean {
  const code = text.charCodeAt(i);
  if (code === UNDERSCORE) return true;
  if (i === partStart || !isUpper(code)) return false;
  const previous = text.charCodeAt(i - 1);
  if (isLower(previous) || isDigit(previous)) return true;
  return isUpper(previous) && i + 1 < text.length && isLower(text.charCodeAt(i + 1));
}

function emitTerm(part: string, emit: (term: string) => void): void {
  if (part.length < 2 || part.length > MAX_TERM || isDigit(part.charCodeAt(0))) return;
  emit(part.toLowerCase());
}

const counter = new TermCounter();
const utf8 = new TextEncoder();
/** A text's UTF-8 bytes, then a 0 that ends its last word: terms are ASCII, and no byte of another character is a word byte. */
let scratch = new Uint8Array(1 << 16);

/**
 * The terms of `text`, counted: forEachTerm's terms, hashed as they are scanned, with no string
 * made per term (a worker counts the terms of every file it parses).
 */
export function countTerms(text: string): TermCounts {
  counter.begin();
  addTerms(text);
  return counter.result();
}

/** The terms of a path's folders and file name without its extension (which the files of a language share). */
export function countPathTerms(path: string): TermCounts {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  counter.begin();
  addTerms(path.slice(0, slash + 1));
  addTerms(path.slice(slash + 1, dot > slash + 1 ? dot : path.length));
  return counter.result();
}

/** The terms of a file, its path's then its text's: countTerms of both joined by a line break, without the joined copy. */
export function countFileTerms(path: string, text: string): TermCounts {
  counter.begin();
  addTerms(path);
  addTerms(text);
  return counter.result();
}

function addTerms(text: string): void {
  // A UTF-16 unit takes at most 3 bytes.
  if (text.length * 3 >= scratch.length) scratch = new Uint8Array(text.length * 3 + 1);
  const { written } = utf8.encodeInto(text, scratch);
  scratch[written] = 0;
  counter.reserve(written);
  countTermsOf(scratch, written, counter);
}

/** forEachTerm's scan over a text's bytes (`bytes[length]` is 0), each byte classified once by table. */
function countTermsOf(bytes: Uint8Array, length: number, counter: TermCounter): void {
  for (let i = 0; i < length; i++) {
    if (BYTE_CLASS[bytes[i]!] !== NOT_WORD) i = countWordTerms(bytes, i, counter);
  }
}

/**
 * Counts the terms of the word at `start`: its parts, then the whole word when it has more than
 * one. Returns where the word ends. Runs of lower-case letters and digits, most of a text's
 * bytes, take the inner loop alone.
 */
function countWordTerms(bytes: Uint8Array, start: number, counter: TermCounter): number {
  let i = start;
  let parts = 0;
  let partStart = start;
  let partHash = HASH_START;
  let previous = NOT_WORD;
  for (;;) {
    let code = bytes[i]!;
    if (BYTE_CLASS[code]! >= LOWER) {
      do {
        partHash = Math.imul(partHash ^ code, FNV_PRIME);
        code = bytes[++i]!;
      } while (BYTE_CLASS[code]! >= LOWER);
      previous = LOWER;
    }
    const kind = BYTE_CLASS[code]!;
    if (kind === UPPER) {
      // A part starts at a lower→upper hump, and at the last capital of a run followed by a lower-case letter.
      if (i !== partStart && (previous === LOWER || (previous === UPPER && BYTE_CLASS[bytes[i + 1]!] === LOWER))) {
        if (isTerm(bytes[partStart]!, i - partStart)) counter.add(partHash);
        parts++;
        partStart = i;
        partHash = HASH_START;
      }
      partHash = Math.imul(partHash ^ (code + 32), FNV_PRIME);
      previous = UPPER;
      i++;
      continue;
    }
    // `_` or the word's end closes the part.
    if (i > partStart) {
      if (isTerm(bytes[partStart]!, i - partStart)) counter.add(partHash);
      parts++;
    }
    if (kind === NOT_WORD) break;
    i++;
    partStart = i;
    partHash = HASH_START;
    previous = UNDER;
  }
  if (parts > 1) countWholeWord(bytes, start, i, counter);
  return i;
}

/** The word `bytes[start..end)` lowercased without its `_`s, as one term. */
function countWholeWord(bytes: Uint8Array, start: number, end: number, counter: TermCounter): void {
  let hash = HASH_START;
  let length = 0;
  let first = UNDERSCORE;
  for (let i = start; i < end; i++) {
    const code = bytes[i]!;
    if (code === UNDERSCORE) continue;
    if (length++ === 0) first = code;
    hash = Math.imul(hash ^ (BYTE_CLASS[code] === UPPER ? code + 32 : code), FNV_PRIME);
  }
  if (isTerm(first, length)) counter.add(hash);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** FNV_OFFSET as the signed 32-bit integer `^` makes of it, so that a hash is never a double. */
const HASH_START = FNV_OFFSET | 0;

function isTerm(firstCode: number, length: number): boolean {
  return length >= 2 && length <= MAX_TERM && !isDigit(firstCode);
}

/** FNV-1a over the UTF-16 code units, as a signed 32-bit integer (an Int32Array element). */
export function termHash(term: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), FNV_PRIME);
  return hash | 0;
}

const UNDERSCORE = 95;

/** Byte classes; LOWER and DIGIT, which never start a part, are the highest. */
const NOT_WORD = 0;
const UNDER = 1;
const UPPER = 2;
const LOWER = 3;
const DIGIT = 4;

/** Each byte's class: only ASCII letters, digits and `_` are word bytes. */
const BYTE_CLASS = Uint8Array.from({ length: 256 }, (_, code) =>
  isLower(code) ? LOWER : isUpper(code) ? UPPER : isDigit(code) ? DIGIT : code === UNDERSCORE ? UNDER : NOT_WORD,
);

function isWordChar(code: number): boolean {
  return isLower(code) || isUpper(code) || isDigit(code) || code === UNDERSCORE;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
