import type { PageRankResult } from '../rank/pageRank.js';
import type { PageRankCache } from '../rank/pageRankCache.js';
import { pageRankKey } from './pageRanksCodec.js';

/** A PageRank cache that can be told to stop asking the one behind it. */
export interface RememberingCache extends PageRankCache {
  /** From now on, only what the request met is answered: the cache behind may be closed, or hold other tables' results. */
  detach(): void;
}

/**
 * `cache` with what one request met kept aside: ranking again for that request (a map's cut
 * ranking completed for its JSON, perhaps after the store closed or the next map changed the
 * cache's tables) meets the same results, never the cache's later ones; once detached, what it
 * did not meet is computed again, on the request's own tables.
 */
export function rememberingCache(cache: PageRankCache): RememberingCache {
  const met = new Map<string, { factors: Float64Array | undefined; result: PageRankResult }>();
  let detached = false;
  return {
    detach() {
      detached = true;
    },
    get(graph) {
      const kept = met.get(pageRankKey(graph));
      if (kept) return sameFactors(kept.factors, graph.identFactors) ? kept.result : undefined;
      if (detached) return undefined;
      const result = cache.get(graph);
      if (result) met.set(pageRankKey(graph), { factors: graph.identFactors, result });
      return result;
    },
    set(graph, result) {
      met.set(pageRankKey(graph), { factors: graph.identFactors, result });
      if (!detached) cache.set(graph, result);
    },
  };
}

function sameFactors(a: Float64Array | undefined, b: Float64Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
