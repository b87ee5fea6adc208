import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { buildIdentifierTables, type FileTags } from '../../dist/src/rank/identifierTables.js';
import { type RankOptions, rankDefinitions, rankedDefinitions } from '../../dist/src/rank/rankDefinitions.js';
import { extractFixture, listFiles } from '../support/fixtureTags.js';

/**
 * Our ranking against an independent one: the same graph built in Python and ranked by
 * networkx's pagerank (python3-networkx and python3-scipy, Debian packages), to 1e-6.
 */
const CHECKER = fileURLToPath(new URL('./networkx_rank.py', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../fixtures/languages', import.meta.url));
const CORPORA = process.env.REPOMAP_CORPORA ?? '/work/corpora';
const CORPUS_SLICE = join(CORPORA, 'slices', 'mixed-500');

/** A Python that has networkx and scipy: Debian's, or whatever `python3` is. */
const python = ['/usr/bin/python3', 'python3'].find((candidate) => spawnSync(candidate, ['-c', 'import networkx, scipy'], { stdio: 'ignore' }).status === 0);
if (!python) console.warn('networkx cross-check skipped: no python3 with networkx and scipy (Debian: python3-networkx python3-scipy)');

interface NetworkxRanking {
  pagerank: Record<string, number>;
  ranked: [string, string, number][];
}

/** Our ranking's input, plus every reference occurrence for the checker to count itself. */
type CheckedFile = FileTags & { referenceNames: readonly string[] };

/** Every file of a tree: source files with their tags, the rest with none, as a map sees them. */
function tagsOf(dir: string): CheckedFile[] {
  const records = new Map(extractFixture(dir).map((record) => [record.path, record]));
  return listFiles(dir).map((path) => {
    const record = records.get(path);
    return {
      path,
      definitions: record?.definitions.map(({ name, line }) => ({ name, line })) ?? [],
      referenceCounts: record?.referenceCounts ?? { names: [], counts: [] },
      referenceNames: record?.references.names ?? [],
    };
  });
}

function networkxRanking(files: CheckedFile[], options: RankOptions): NetworkxRanking {
  const input = JSON.stringify({
    files: files.map(({ path, definitions, referenceNames }) => ({ path, definitions, references: referenceNames })),
    chat: [...(options.chatFiles ?? [])],
    mentionedFiles: [...(options.mentionedFiles ?? [])],
    mentionedIdents: [...(options.mentionedIdents ?? [])],
  });
  const result = spawnSync(python!, [CHECKER], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`networkx checker failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as NetworkxRanking;
}

function expectSameRanking(files: CheckedFile[], options: RankOptions = {}): void {
  const tables = buildIdentifierTables(files);
  const ours = rankDefinitions(tables, options);
  const definitions = rankedDefinitions(ours, tables);
  const theirs = networkxRanking(files, options);
  expect(ours.fileRanks.length).toBe(Object.keys(theirs.pagerank).length);
  for (const { path, rank } of ours.fileRanks) expect(rank).toBeCloseTo(theirs.pagerank[path]!, 6);
  expect(definitions.length).toBe(theirs.ranked.length);
  const theirScores = new Map(theirs.ranked.map(([path, name, score]) => [`${path}\0${name}`, score]));
  for (const { path, name, score } of definitions) expect(score).toBeCloseTo(theirScores.get(`${path}\0${name}`)!, 6);
}

describe.skipIf(!python)('PageRank against networkx', () => {
  const fixtures = readdirSync(FIXTURES).sort();

  test.each(fixtures)('fixture %s', (fixture) => {
    expectSameRanking(tagsOf(join(FIXTURES, fixture)));
  });

  test('the polyglot fixture with a chat file, a mentioned file and mentioned identifiers', () => {
    expectSameRanking(tagsOf(join(FIXTURES, 'polyglot')), {
      chatFiles: new Set(['web/src/App.tsx']),
      mentionedFiles: new Set(['catalog/catalog.go']),
      mentionedIdents: new Set(['price_with_tax', 'pricing']),
    });
  });

  test.skipIf(!existsSync(CORPUS_SLICE))('the mixed-500 corpus slice', () => {
    expectSameRanking(tagsOf(CORPUS_SLICE), { mentionedIdents: new Set(['Serializer']) });
  });
});

if (python && !existsSync(CORPUS_SLICE)) {
  console.warn(`networkx corpus cross-check skipped: ${CORPUS_SLICE} is missing (build it with ../shared/corpora/make-corpora.sh)`);
}
