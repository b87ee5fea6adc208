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

/**
 * The postings of files' term counts, by file id: every (term, file, count) entry in file order,
 * sorted by term with a stable radix sort (so each term's files stay ascending). At 9,320 files
 * (3.4 M entries) a Map from hash to term took 0.35 s of each table build.
 */
export function buildPostings(perFile: readonly TermCounts[]): Postings {
  let total = 0;
  for (const terms of perFile) total += terms.hashes.length;
  const entryHashes = new Int32Array(total);
  const entryFiles = new Int32Array(total);
  const entryCounts = new Int32Array(total);
  const fileTotals = new Int32Array(perFile.length);
  let at = 0;
  perFile.forEach((terms, file) => {
    entryHashes.set(terms.hashes, at);
    entryCounts.set(terms.counts, at);
    entryFiles.fill(file, at, at + terms.hashes.length);
    at += terms.hashes.length;
    for (let i = 0; i < terms.counts.length; i++) fileTotals[file]! += terms.counts[i]!;
  });
  const order = stableOrderByHash(entryHashes);
  let termCount = 0;
  for (let k = 0; k < total; k++) if (k === 0 || entryHashes[order[k]!] !== entryHashes[order[k - 1]!]) termCount++;
  const hashes = new Int32Array(termCount);
  const offsets = new Int32Array(termCount + 1);
  const files = new Int32Array(total);
  const counts = new Int32Array(total);
  let term = -1;
  for (let k = 0; k < total; k++) {
    const entry = order[k]!;
    if (k === 0 || entryHashes[entry] !== hashes[term]) {
      hashes[++term] = entryHashes[entry]!;
      offsets[term] = k;
    }
    files[k] = entryFiles[entry]!;
    counts[k] = entryCounts[entry]!;
  }
  offsets[termCount] = total;
  return { hashes, offsets, files, counts, fileTotals };
}

/** Entry indices ordered by signed hash, equal hashes in entry order: two stable 16-bit counting passes. */
function stableOrderByHash(entryHashes: Int32Array): Int32Array {
  const total = entryHashes.length;
  let order = new Int32Array(total);
  for (let k = 0; k < total; k++) order[k] = k;
  let next = new Int32Array(total);
  const buckets = new Int32Array(1 << 16);
  for (const shift of [0, 16]) {
    buckets.fill(0);
    // The sign bit flipped: signed order is then unsigned order.
    const digit = (entry: number) => ((entryHashes[entry]! ^ 0x80000000) >>> shift) & 0xffff;
    for (let k = 0; k < total; k++) buckets[digit(order[k]!)]!++;
    let start = 0;
    for (let b = 0; b < buckets.length; b++) {
      const size = buckets[b]!;
      buckets[b] = start;
      start += size;
    }
    for (let k = 0; k < total; k++) {
      const entry = order[k]!;
      next[buckets[digit(entry)]!++] = entry;
    }
    [order, next] = [next, order];
  }
  return order;
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
  const at = lowerBound(postings.files, file, start, end);
  return at < end && postings.files[at] === file ? postings.counts[at]! : 0;
}
