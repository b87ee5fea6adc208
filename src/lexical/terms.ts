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

/**
 * The terms of `text`, counted: forEachTerm's terms, hashed as they are scanned, with no string
 * made per term (a worker counts the terms of every file it parses).
 */
export function countTerms(text: string): TermCounts {
  const index = new Map<number, number>();
  const counted: TermCounts = { hashes: [], counts: [] };
  const count = (hash: number) => {
    const at = index.get(hash);
    if (at === undefined) {
      index.set(hash, counted.hashes.length);
      counted.hashes.push(hash);
      counted.counts.push(1);
    } else {
      counted.counts[at]!++;
    }
  };
  // forEachTerm's word scan, inlined: a shared scan with a callback per word made this 25% slower.
  const length = text.length;
  let at = 0;
  while (at < length) {
    while (at < length && !isWordChar(text.charCodeAt(at))) at++;
    const start = at;
    while (at < length && isWordChar(text.charCodeAt(at))) at++;
    if (at === start) continue;
    let parts = 0;
    let partStart = start;
    let partHash = FNV_OFFSET;
    let wordHash = FNV_OFFSET;
    let wordLength = 0;
    for (let i = start; i <= at; i++) {
      if (i < at && !isBoundary(text, i, partStart)) {
        const lower = lowerCode(text.charCodeAt(i));
        partHash = Math.imul(partHash ^ lower, FNV_PRIME);
        wordHash = Math.imul(wordHash ^ lower, FNV_PRIME);
        wordLength++;
        continue;
      }
      if (i > partStart) {
        if (isTerm(text.charCodeAt(partStart), i - partStart)) count(partHash | 0);
        parts++;
      }
      if (i === at) break;
      const code = text.charCodeAt(i);
      partStart = code === UNDERSCORE ? i + 1 : i;
      partHash = FNV_OFFSET;
      if (code !== UNDERSCORE) {
        const lower = lowerCode(code);
        partHash = Math.imul(partHash ^ lower, FNV_PRIME);
        wordHash = Math.imul(wordHash ^ lower, FNV_PRIME);
        wordLength++;
      }
    }
    if (parts > 1 && isTerm(firstNonUnderscore(text, start, at), wordLength)) count(wordHash | 0);
  }
  return counted;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function isTerm(firstCode: number, length: number): boolean {
  return length >= 2 && length <= MAX_TERM && !isDigit(firstCode);
}

function lowerCode(code: number): number {
  return isUpper(code) ? code + 32 : code;
}

function firstNonUnderscore(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) !== UNDERSCORE) return text.charCodeAt(i);
  return UNDERSCORE;
}

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
