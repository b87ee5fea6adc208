import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { decodePageRanks, encodePageRanks, pageRankKey } from '../../dist/src/derived/pageRanksCodec.js';
import { buildIdentifierTables } from '../../dist/src/rank/identifierTables.js';
import { DEFAULT_PAGERANK, type PageRankResult } from '../../dist/src/rank/pageRank.js';
import type { PageRankCache, UnpersonalizedGraph } from '../../dist/src/rank/pageRankCache.js';
import { graphScores, type RankOptions } from '../../dist/src/rank/rankDefinitions.js';
import { fixtureFileTags } from '../support/fixtureTags.js';

/** An unpersonalized request's PageRank, kept with the tables: served back exactly, and only to a request that would compute the same. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const tables = buildIdentifierTables(fixtureFileTags(POLYGLOT));
// One name that means little, as src/rank/commonNames.ts would find it.
const identFactors = Float64Array.from(tables.identNames, (name) => (name === 'price_with_tax' ? 0.1 : 1));
const taskGraph: UnpersonalizedGraph = { identFactors, importLinkWeight: 2, pageRank: DEFAULT_PAGERANK };

/** A cache in memory that records what asked it. */
class RecordingCache implements PageRankCache {
  readonly kept = new Map<string, Uint8Array>();
  readonly asked: string[] = [];

  get(graph: UnpersonalizedGraph): PageRankResult | undefined {
    this.asked.push(`get ${pageRankKey(graph)}`);
    const bytes = this.kept.get(pageRankKey(graph));
    return (bytes && decodePageRanks(bytes, graph, tables.paths.length)) ?? undefined;
  }

  set(graph: UnpersonalizedGraph, result: PageRankResult): void {
    this.asked.push(`set ${pageRankKey(graph)}`);
    this.kept.set(pageRankKey(graph), encodePageRanks(graph, result));
  }
}

describe('kept PageRank results', () => {
  test('come back from their bytes whole, for the same factors and files only', () => {
    const result = graphScores(tables, { identFactors, importLinkWeight: 2 });
    const computed = { ranks: result.ranks, iterations: result.iterations, converged: result.converged };
    const bytes = encodePageRanks(taskGraph, computed);
    // At an odd offset, as a stored value may be.
    const stored = new Uint8Array(bytes.length + 1);
    stored.set(bytes, 1);
    expect(decodePageRanks(stored.subarray(1), taskGraph, tables.paths.length)).toEqual(computed);
    const otherFactors = identFactors.slice();
    otherFactors[0]! *= 2;
    expect(decodePageRanks(bytes, { ...taskGraph, identFactors: otherFactors }, tables.paths.length)).toBeNull();
    expect(decodePageRanks(bytes, { ...taskGraph, identFactors: undefined }, tables.paths.length)).toBeNull();
    expect(decodePageRanks(bytes, taskGraph, tables.paths.length + 1)).toBeNull();
    expect(decodePageRanks(bytes.subarray(0, bytes.length - 8), taskGraph, tables.paths.length)).toBeNull();
  });

  test('a second unpersonalized request is served the first one’s ranks; a personalized one never asks', () => {
    const cache = new RecordingCache();
    const options: RankOptions = { identFactors, importLinkWeight: 2, pageRankCache: cache };
    const first = graphScores(tables, options);
    const second = graphScores(tables, options);
    expect(cache.asked).toEqual(['get page-ranks:2:0.85:0.000001:100', 'set page-ranks:2:0.85:0.000001:100', 'get page-ranks:2:0.85:0.000001:100']);
    expect(second.ranks).toEqual(first.ranks);
    expect(second.slotScores).toEqual(first.slotScores);
    expect(second.iterations).toBe(first.iterations);
    expect(graphScores(tables, { identFactors, importLinkWeight: 2 }).ranks).toEqual(first.ranks);

    cache.asked.length = 0;
    graphScores(tables, { ...options, chatFiles: new Set(['web/src/App.tsx']) });
    graphScores(tables, { ...options, mentionedIdents: new Set(['price_with_tax']) });
    graphScores(tables, { ...options, mentionedFiles: new Set(['api/server.py']) });
    expect(cache.asked).toEqual([]);
  });

  test('aider’s graph and the task ranking’s are kept apart', () => {
    const cache = new RecordingCache();
    const task = graphScores(tables, { identFactors, importLinkWeight: 2, pageRankCache: cache });
    const aider = graphScores(tables, { pageRankCache: cache });
    expect(cache.asked).toEqual([
      'get page-ranks:2:0.85:0.000001:100',
      'set page-ranks:2:0.85:0.000001:100',
      'get page-ranks:0:0.85:0.000001:100',
      'set page-ranks:0:0.85:0.000001:100',
    ]);
    expect(aider.ranks).toEqual(graphScores(tables).ranks);
    expect(aider.ranks).not.toEqual(task.ranks);
  });
});
