import type { PageRankResult } from '../rank/pageRank.js';
import type { UnpersonalizedGraph } from '../rank/pageRankCache.js';

/** Unpersonalized PageRank results as stored values, keyed by the options they were computed with. */

/** The prefix of every kept result's key: new tables drop them all (see DerivedTables). */
export const PAGE_RANKS_PREFIX = 'page-ranks:';

/** One kept result per set of options: the factors, which differ only between signal ablations, are compared on reading. */
export function pageRankKey(graph: UnpersonalizedGraph): string {
  const { damping, tolerance, maxIterations } = graph.pageRank;
  return `${PAGE_RANKS_PREFIX}${graph.importLinkWeight}:${damping}:${tolerance}:${maxIterations}`;
}

/** float64s: iterations, converged (0 or 1), the factors' count, the factors, the ranks. */
const HEADER = 3;

export function encodePageRanks(graph: UnpersonalizedGraph, result: PageRankResult): Uint8Array {
  const factors = graph.identFactors ?? new Float64Array(0);
  const out = new Float64Array(HEADER + factors.length + result.ranks.length);
  out.set([result.iterations, result.converged ? 1 : 0, factors.length]);
  out.set(factors, HEADER);
  out.set(result.ranks, HEADER + factors.length);
  return new Uint8Array(out.buffer);
}

/** The result kept in `bytes`, when it was computed with the same factors on `fileCount` files; null otherwise. */
export function decodePageRanks(bytes: Uint8Array, graph: UnpersonalizedGraph, fileCount: number): PageRankResult | null {
  const factors = graph.identFactors ?? new Float64Array(0);
  if (bytes.length !== 8 * (HEADER + factors.length + fileCount)) return null;
  // Stored values need not be 8-byte aligned: the header and ranks are copied out, the factors compared as bytes.
  const header = new Float64Array(HEADER);
  new Uint8Array(header.buffer).set(bytes.subarray(0, 8 * HEADER));
  const [iterations, converged, factorCount] = header as unknown as [number, number, number];
  if (factorCount !== factors.length || !Number.isInteger(iterations) || (converged !== 0 && converged !== 1)) return null;
  const ranksAt = 8 * (HEADER + factors.length);
  if (Buffer.compare(bytes.subarray(8 * HEADER, ranksAt), new Uint8Array(factors.buffer, factors.byteOffset, factors.byteLength)) !== 0) return null;
  const ranks = new Float64Array(fileCount);
  new Uint8Array(ranks.buffer).set(bytes.subarray(ranksAt));
  return { ranks, iterations, converged: converged === 1 };
}
