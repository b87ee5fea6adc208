import { lowerBound } from '../sortedSearch.js';
import type { TermCounts } from './terms.js';

/** Which files hold each term, and how often: an inverted index over term hashes, in typed arrays. */
export interface Postings {
  /** Distinct term hashes, ascending (as signed 32-bit integers). */
  hashes: Int32Array;
  /** CSR: term t occurs in files[offsets[t] .. offsets[t + 1]] (ascending), counts[…] times. */
  offsets: Int32Array;
  files: Int32Array;
  counts: Int32Array;
  /** Per file, its number of term occurrences (BM25's document length). */
  fileTotals: Int32Array;
}

/** The postings of files' term counts, by file id. */
export function buildPostings(perFile: readonly TermCounts[]): Postings {
  // Terms interned in order of first sight, then counted into place: no sort of every entry.
  const termOf = new Map<number, number>();
  const termHashes: number[] = [];
  const termSizes: number[] = [];
  const fileTotals = new Int32Array(perFile.length);
  perFile.forEach((terms, file) => {
    for (let i = 0; i < terms.hashes.length; i++) {
      const hash = terms.hashes[i]!;
      const term = termOf.get(hash);
      if (term === undefined) {
        termOf.set(hash, termHashes.length);
        termHashes.push(hash);
        termSizes.push(1);
      } else {
        termSizes[term]!++;
      }
      fileTotals[file]! += terms.counts[i]!;
    }
  });
  const termCount = termHashes.length;
  const byHash = Int32Array.from(termHashes.keys()).sort((a, b) => termHashes[a]! - termHashes[b]!);
  const hashes = new Int32Array(termCount);
  const offsets = new Int32Array(termCount + 1);
  const cursor = new Int32Array(termCount);
  byHash.forEach((term, place) => {
    hashes[place] = termHashes[term]!;
    offsets[place + 1] = offsets[place]! + termSizes[term]!;
  });
  byHash.forEach((term, place) => {
    cursor[term] = offsets[place]!;
  });
  const files = new Int32Array(offsets[termCount]!);
  const counts = new Int32Array(files.length);
  // Files are visited in ascending order, so each term's files come out ascending.
  perFile.forEach((terms, file) => {
    for (let i = 0; i < terms.hashes.length; i++) {
      const at = cursor[termOf.get(terms.hashes[i]!)!]!++;
      files[at] = file;
      counts[at] = terms.counts[i]!;
    }
  });
  return { hashes, offsets, files, counts, fileTotals };
}

/** The index of `hash` in the postings' terms, or −1. */
export function termIndex(postings: Pick<Postings, 'hashes'>, hash: number): number {
  const { hashes } = postings;
  let low = 0;
  let high = hashes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = hashes[middle]!;
    if (value < hash) low = middle + 1;
    else if (value > hash) high = middle - 1;
    else return middle;
  }
  return -1;
}

/** How often the term of `hash` occurs in `file` (0 when it does not). */
export function termCountIn(postings: Postings, hash: number, file: number): number {
  const term = termIndex(postings, hash);
  if (term < 0) return 0;
  const start = postings.offsets[term]!;
  const end = postings.offsets[term + 1]!;
  const at = start + lowerBound(postings.files.subarray(start, end), file);
  return at < end && postings.files[at] === file ? postings.counts[at]! : 0;
}
