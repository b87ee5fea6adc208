import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { decodeKeptRanking, encodeKeptRanking } from '../../dist/src/derived/rankingsCodec.js';
import type { GitHistory } from '../../dist/src/history/gitHistory.js';
import { readTaskText } from '../../dist/src/lexical/taskText.js';
import { buildIdentifierTables } from '../../dist/src/rank/identifierTables.js';
import { buildLexicalTables } from '../../dist/src/rank/lexicalTables.js';
import type { Ranking } from '../../dist/src/rank/rankDefinitions.js';
import { ALL_SIGNALS, rankForTask, type TaskRankOptions } from '../../dist/src/rank/rankForTask.js';
import type { KeptRanking, RankingCache } from '../../dist/src/rank/rankingCache.js';
import { fixtureFileTags } from '../support/fixtureTags.js';

/** A cut ranking of a request that personalizes nothing, kept with the tables: served back exactly, and only to a request ranked the same. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const files = fixtureFileTags(POLYGLOT);
const tables = buildIdentifierTables(files);

/** A cache in memory that records what asked it, keeping what it is given as stored bytes. */
class RecordingCache implements RankingCache {
  readonly kept = new Map<string, Uint8Array>();
  readonly asked: string[] = [];

  keptRanking(key: string): KeptRanking | undefined {
    this.asked.push(`get ${key}`);
    const bytes = this.kept.get(key);
    return (bytes && decodeKeptRanking(bytes, tables.paths.length, tables.definerFiles.length)) ?? undefined;
  }

  keepRanking(key: string, ranking: KeptRanking): void {
    this.asked.push(`set ${key}`);
    this.kept.set(key, encodeKeptRanking(ranking));
  }
}

const defaults: TaskRankOptions = { task: null, tests: 'demote', signals: ALL_SIGNALS, history: null, limit: 6 };
const history: GitHistory = { head: 'a'.repeat(40), paths: ['api/server.py', 'web/src/App.tsx'], commits: [[0], [1, 0]] };

/** What a map reads of a ranking: the list, the files' ranks, the scores of the listed slots. */
function readByMap(ranking: Ranking) {
  const { entryCodes, definitionSlots, fileRanks, complete, hiddenFiles, personalization, edgeCount, pageRankIterations, converged } = ranking;
  const slotScores = Array.from(definitionSlots, (slot) => ranking.slotScores[slot]);
  return {
    entryCodes,
    definitionSlots: [...definitionSlots],
    slotScores,
    fileRanks,
    complete,
    hiddenFiles,
    personalization,
    edgeCount,
    pageRankIterations,
    converged,
  };
}

describe('kept rankings', () => {
  test('a kept ranking is stored and read back exactly; bytes of other tables or damaged ones are refused', () => {
    const cache = new RecordingCache();
    rankForTask(tables, { ...defaults, rankingCache: cache });
    const [bytes] = [...cache.kept.values()];
    const kept = decodeKeptRanking(bytes!, tables.paths.length, tables.definerFiles.length)!;
    expect(kept.slots.length).toBe(6);
    expect(kept.files.length).toBe(tables.paths.length);
    expect(encodeKeptRanking(kept)).toEqual(bytes);
    // An odd offset, as a stored value may have.
    const shifted = new Uint8Array(bytes!.length + 1).subarray(1);
    shifted.set(bytes!);
    expect(decodeKeptRanking(shifted, tables.paths.length, tables.definerFiles.length)).toEqual(kept);
    expect(decodeKeptRanking(bytes!, tables.paths.length + 1, tables.definerFiles.length)).toBeNull();
    expect(
      decodeKeptRanking(
        bytes!,
        tables.paths.length,
        kept.slots.reduce((a, b) => Math.max(a, b), 0),
      ),
    ).toBeNull();
    expect(decodeKeptRanking(bytes!.subarray(0, bytes!.length - 4), tables.paths.length, tables.definerFiles.length)).toBeNull();
    expect(decodeKeptRanking(new Uint8Array(8), tables.paths.length, tables.definerFiles.length)).toBeNull();
  });

  test("a second request ranked the same is served the first one's ranking, equal to one made without a cache", () => {
    const cache = new RecordingCache();
    const options = { ...defaults, rankingCache: cache };
    const first = rankForTask(tables, options);
    const second = rankForTask(tables, options);
    const key = cache.asked[0]!.slice('get '.length);
    expect(cache.asked).toEqual([`get ${key}`, `set ${key}`, `get ${key}`]);
    expect(readByMap(second)).toEqual(readByMap(first));
    expect(readByMap(first)).toEqual(readByMap(rankForTask(tables, defaults)));
    expect(first.complete).toBe(false);
    // Complete (the limit above the definitions): the files are listed bare after them, from the kept order too.
    const whole = { ...defaults, limit: 10_000, tests: 'exclude' as const, rankingCache: cache };
    rankForTask(tables, whole);
    const kept = rankForTask(tables, whole);
    expect(kept.complete).toBe(true);
    expect(readByMap(kept)).toEqual(readByMap(rankForTask(tables, { ...whole, rankingCache: undefined })));
  });

  test('what the ranking is served is what was kept', () => {
    const cache = new RecordingCache();
    const options = { ...defaults, rankingCache: cache };
    const made = rankForTask(tables, options);
    const [key, bytes] = [...cache.kept][0]!;
    const kept = decodeKeptRanking(bytes!, tables.paths.length, tables.definerFiles.length)!;
    cache.kept.set(key!, encodeKeptRanking({ ...kept, slots: kept.slots.slice().reverse(), slotScores: kept.slotScores.slice().reverse() }));
    expect(rankForTask(tables, options).definitionSlots).toEqual(made.definitionSlots.slice().reverse());
  });

  test('requests ranked otherwise are kept under other keys; a request that personalizes, explains or ranks everything never asks', () => {
    const cache = new RecordingCache();
    const keyOf = (options: Partial<TaskRankOptions>): string => {
      cache.asked.length = 0;
      rankForTask(tables, { ...defaults, ...options, rankingCache: cache });
      return cache.asked[0]!;
    };
    const keys = [
      keyOf({}),
      keyOf({ limit: 7 }),
      keyOf({ tests: 'exclude' }),
      keyOf({ history }),
      keyOf({ history: { ...history, head: 'b'.repeat(40) } }),
      keyOf({ signals: { ...ALL_SIGNALS, recency: 0.5 } }),
      keyOf({ pageRank: { damping: 0.9, tolerance: 1e-6, maxIterations: 100 } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keyOf({})).toBe(keys[0]);

    const lexical = buildLexicalTables(files);
    cache.asked.length = 0;
    for (const personal of [
      { task: { text: readTaskText('price with tax'), lexical } },
      { chatFiles: new Set(['api/server.py']) },
      { mentionedFiles: new Set(['api/server.py']) },
      { mentionedIdents: new Set(['price_with_tax']) },
      { anchors: new Map([['api/server.py', 1]]) },
      { explain: true },
      { limit: undefined },
    ]) {
      rankForTask(tables, { ...defaults, ...personal, rankingCache: cache });
    }
    expect(cache.asked).toEqual([]);
  });
});
