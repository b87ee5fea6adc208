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
