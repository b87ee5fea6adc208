import { type Postings, termIndex } from './postings.js';

/** BM25's usual constants. */
const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 of every file for the weighted query terms, over `postings`; files in `excluded`
 * (1) neither score nor count in the statistics.
 */
export function bm25Scores(postings: Postings, termHashes: Int32Array, termWeights: Float64Array, excluded: Uint8Array | null): Float64Array {
  const { offsets, files, counts, fileTotals } = postings;
  const fileCount = fileTotals.length;
  let documents = 0;
  let totalLength = 0;
  for (let file = 0; file < fileCount; file++) {
    if (excluded?.[file]) continue;
    documents++;
    totalLength += fileTotals[file]!;
  }
  const scores = new Float64Array(fileCount);
  if (documents === 0 || totalLength === 0) return scores;
  const averageLength = totalLength / documents;
  for (let q = 0; q < termHashes.length; q++) {
    const term = termIndex(postings, termHashes[q]!);
    if (term < 0) continue;
    const start = offsets[term]!;
    const end = offsets[term + 1]!;
    let frequency = 0;
    for (let p = start; p < end; p++) if (!excluded?.[files[p]!]) frequency++;
    if (frequency === 0) continue;
    const idf = Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
    const weight = termWeights[q]! * idf;
    for (let p = start; p < end; p++) {
      const file = files[p]!;
      if (excluded?.[file]) continue;
      const tf = counts[p]!;
      scores[file]! += (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * fileTotals[file]!) / averageLength));
    }
  }
  return scores;
}
