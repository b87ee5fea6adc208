import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildIdentifierTables, type FileTags } from '../../dist/src/rank/identifierTables.js';
import { entryOf, rankDefinitions, rankedDefinitions } from '../../dist/src/rank/rankDefinitions.js';
import { countNames } from '../../dist/src/record/fileRecord.js';
import { AIDER_EXPECTED } from '../support/aiderReference.js';

/**
 * aider's own ranking state on the shop repo (fixtures/aider): we feed aider's tags
 * to our ranking and must get aider's personalization, PageRank, (file, identifier) scores and
 * ranked list.
 */

interface AiderTag {
  rel_fname: string;
  line: number;
  name: string;
  kind: 'def' | 'ref';
}

interface AiderRanking {
  personalization: Record<string, number> | null;
  pagerank: [string, number][];
  ranked_definitions: [string, string, number][];
  num_nodes: number;
  num_edges: number;
}

const SCENARIOS: { name: string; chat?: string[]; mentionedFiles?: string[]; mentionedIdents?: string[] }[] = [
  { name: 'none-1024' },
  { name: 'none-256' },
  { name: 'chat-service-1024', chat: ['py/shop/service.py'] },
  { name: 'mention-512', mentionedIdents: ['ShoppingCart', 'Reserve'] },
  { name: 'chat-index-mentionfile-512', chat: ['web/src/index.ts'], mentionedFiles: ['inventory/store.go'] },
];

function read<T>(scenario: string, file: string): T {
  return JSON.parse(readFileSync(join(AIDER_EXPECTED, scenario, file), 'utf8')) as T;
}

/** aider's tags as our ranking input; aider's lines are 0-based. */
function fileTags(scenario: string): FileTags[] {
  const tags = read<Record<string, AiderTag[]>>(scenario, 'tags.json');
  return Object.entries(tags).map(([path, list]) => ({
    path,
    definitions: list.filter((tag) => tag.kind === 'def').map((tag) => ({ name: tag.name, line: tag.line + 1 })),
    referenceCounts: countNames(list.filter((tag) => tag.kind === 'ref').map((tag) => tag.name)),
  }));
}

/**
 * Keys in descending value order, values equal to 12 significant digits taken as tied and put in
 * descending key order. Ties that are exact in arithmetic come out of floating point a few ulps
 * apart, in an order set by summation order, which aider's own (hash-ordered) graph varies.
 */
function orderUpToNoise(list: readonly (readonly [string, number])[]): string[] {
  const rounded = (value: number) => Number(value.toPrecision(12));
  return [...list].sort(([a, x], [b, y]) => rounded(y) - rounded(x) || (a < b ? 1 : a > b ? -1 : 0)).map(([key]) => key);
}

describe.each(SCENARIOS)('aider ranking, scenario $name', (scenario) => {
  const expected = read<AiderRanking>(scenario.name, 'pagerank.json');
  const tables = buildIdentifierTables(fileTags(scenario.name));
  const ranking = rankDefinitions(tables, {
    chatFiles: new Set(scenario.chat ?? []),
    mentionedFiles: new Set(scenario.mentionedFiles ?? []),
    mentionedIdents: new Set(scenario.mentionedIdents ?? []),
  });

  test('personalization', () => {
    expect(Object.fromEntries(ranking.personalization)).toEqual(expected.personalization ?? {});
  });

  test('graph size and PageRank to 1e-6', () => {
    expect(ranking.fileRanks).toHaveLength(expected.num_nodes);
    expect(ranking.edgeCount).toBe(expected.num_edges);
    const ours = new Map(ranking.fileRanks.map(({ path, rank }) => [path, rank]));
    for (const [path, rank] of expected.pagerank) expect(ours.get(path)).toBeCloseTo(rank, 6);
    const ourOrder = ranking.fileRanks.map(({ path, rank }) => [path, rank] as const);
    expect(orderUpToNoise(ourOrder)).toEqual(orderUpToNoise(expected.pagerank));
  });

  test('ranked (file, identifier) scores, in order', () => {
    const definitions = rankedDefinitions(ranking, tables);
    expect(orderUpToNoise(definitions.map(({ path, name, score }) => [`${path} ${name}`, score]))).toEqual(
      orderUpToNoise(expected.ranked_definitions.map(([path, name, score]) => [`${path} ${name}`, score])),
    );
    definitions.forEach(({ score }, i) => {
      expect(score).toBeCloseTo(expected.ranked_definitions[i]![2], 6);
    });
  });

  test('the ranked list', () => {
    const aiderList = read<{ rel_fname: string; name?: string; line?: number }[]>(scenario.name, 'ranked.json');
    // aider lists a (file, identifier) pair's definitions in set order; ours come by line.
    const aiderEntries: string[] = [];
    for (const tag of aiderList) {
      const entry = tag.name === undefined ? tag.rel_fname : `${tag.rel_fname} ${tag.name}`;
      if (aiderEntries[aiderEntries.length - 1] !== entry) aiderEntries.push(entry);
    }
    const entries = Array.from(ranking.entryCodes, (code) => entryOf(tables, code));
    const ours = entries.map((entry) => (entry.name === null ? entry.path : `${entry.path} ${entry.name}`));
    // The list ends with the files outside the graph, in aider's set order: ours sorts them.
    const outside = entries.filter((entry) => !ranking.fileRanks.some(({ path }) => path === entry.path)).length;
    expect(ours.slice(0, ours.length - outside)).toEqual(aiderEntries.slice(0, aiderEntries.length - outside));
    expect(ours.slice(ours.length - outside)).toEqual(aiderEntries.slice(aiderEntries.length - outside).sort());
  });
});
