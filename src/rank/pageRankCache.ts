import type { DerivedKey } from '../store/tagStore.js';
import type { PageRankOptions, PageRankResult } from './pageRank.js';

/**
 * A request without chat files, mentions or personalization ranks files the same way until a
 * file changes: its PageRank depends on the tables and on these alone, so it can be kept beside
 * them for the next map (as aider keeps its map for an unchanged request).
 */
export interface UnpersonalizedGraph {
  /** The request's factor per identifier (see RankOptions.identFactors), compared whole. */
  identFactors: Float64Array | undefined;
  importLinkWeight: number;
  pageRank: PageRankOptions;
}

/** Where unpersonalized PageRank results are kept, for the tables they were computed on. */
export interface PageRankCache {
  get(graph: UnpersonalizedGraph): PageRankResult | undefined;
  set(graph: UnpersonalizedGraph, result: PageRankResult): void;
}

/** One kept result per set of options: the factors, which differ only between signal ablations, are compared on reading. */
export function pageRankKey(graph: UnpersonalizedGraph): DerivedKey {
  const { damping, tolerance, maxIterations } = graph.pageRank;
  return `page-ranks:${graph.importLinkWeight}:${damping}:${tolerance}:${maxIterations}`;
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

/**
 * `cache` with what one request met kept aside: ranking again for that request (a map's cut
 * ranking completed for its JSON, perhaps after the store closed or the next map changed the
 * cache's tables) meets the same results, never the cache's later ones.
 */
export function rememberingCache(cache: PageRankCache): PageRankCache {
  const met = new Map<DerivedKey, { factors: Float64Array | undefined; result: PageRankResult }>();
  return {
    get(graph) {
      const kept = met.get(pageRankKey(graph));
      if (kept) return sameFactors(kept.factors, graph.identFactors) ? kept.result : undefined;
      const result = cache.get(graph);
      if (result) met.set(pageRankKey(graph), { factors: graph.identFactors, result });
      return result;
    },
    set(graph, result) {
      met.set(pageRankKey(graph), { factors: graph.identFactors, result });
      cache.set(graph, result);
    },
  };
}

function sameFactors(a: Float64Array | undefined, b: Float64Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
