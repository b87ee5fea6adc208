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
const MAX_FILE_TERM_BYTES = 256 * 1024;

/** Distinct term hashes with how often each occurs, in order of first occurrence. */
export interface TermCounts {
  hashes: Int32Array;
  counts: Int32Array;
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

let counter: TermCounter | undefined;

/** The counter, made on first use: a warm map counts no terms. */
function termCounter(): TermCounter {
  counter ??= new TermCounter();
  return counter;
}

/**
 * The terms of `text`, counted: forEachTerm's terms, hashed as they are scanned, with no string
 * made per term (a worker counts the terms of every file it parses).
 */
export function countTerms(text: string): TermCounts {
  return termCounter().count([text]);
}

/** The terms of a path's folders and file name without its extension (which the files of a language share). */
export function countPathTerms(path: string): TermCounts {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return termCounter().count([path.slice(0, slash + 1), path.slice(slash + 1, dot > slash + 1 ? dot : path.length)]);
}

/**
 * The terms of a file, its path's then those of its text's first 256 KiB (beyond, files are
 * generated or bundled, and their words are noise to a query): countTerms of both joined by a
 * line break. Read from the UTF-8 bytes the file was decoded from, not encoded again.
 */
export function countFileTerms(path: string, bytes: Uint8Array): TermCounts {
  return termCounter().count([path, bytes.subarray(0, MAX_FILE_TERM_BYTES)]);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units, as a signed 32-bit integer (an Int32Array element). */
export function termHash(term: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), FNV_PRIME);
  return hash | 0;
}

const UNDERSCORE = 95;

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
