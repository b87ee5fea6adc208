import type { PageRankResult } from '../rank/pageRank.js';
import type { PageRankCache } from '../rank/pageRankCache.js';
import { pageRankKey } from './pageRanksCodec.js';

/**
 * `cache` with what one request met kept aside: ranking again for that request (a map's cut
 * ranking completed for its JSON, perhaps after the store closed or the next map changed the
 * cache's tables) meets the same results, never the cache's later ones.
 */
export function rememberingCache(cache: PageRankCache): PageRankCache {
  const met = new Map<string, { factors: Float64Array | undefined; result: PageRankResult }>();
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
