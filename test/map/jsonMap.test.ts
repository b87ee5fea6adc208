import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { buildMap, openIndex, openRepoMap } from '../../dist/src/index.js';
import type { MapExplanation } from '../../dist/src/map/explainMap.js';
import { renderMap } from '../../dist/src/render/renderMap.js';
import { runCli } from '../support/cli.js';
import { copyFixture, lines } from '../support/mapFixture.js';
import { type MapJson, mapJsonErrors } from '../support/mapJsonSchema.js';

/**
 * The JSON map on a small Python bakery: oven.py's Oven bakes dough.py's Dough, shop.py sells
 * what they make, and recipes.py holds fifty constants nobody reads. At 100 tokens the map shows
 * 8 entries while the ranking, cut at budget ÷ 2 = 50 of its 61 (file, name) pairs, is not
 * complete: the JSON completes it after the store closed (the crash of issue 25).
 */
const root = copyFixture('jsonMap');
const QUERY = 'The oven bakes a loaf too dark: preheat ignores minutes';
const ARGS = ['map', root, '-t', '100', '-q', QUERY];
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

async function cli(args: string[]): Promise<string> {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`repomap ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** What the map at 100 tokens shows, file by file in ranked order. */
const SHOWN = [
  { path: 'README.md', shownAs: 'path', definitions: [] },
  {
    path: 'bakery/oven.py',
    shownAs: 'lines',
    definitions: [
      { name: 'Oven', kind: 'class', line: 4, signatureLines: [4], scopeLines: [] },
      // Its decorator and every line of its head, under its class's head.
      { name: 'preheat', kind: 'method', line: 11, signatureLines: [10, 11, 12, 13, 14], scopeLines: [4] },
    ],
  },
  { path: 'bakery/dough.py', shownAs: 'lines', definitions: [{ name: 'Dough', kind: 'class', line: 1, signatureLines: [1], scopeLines: [] }] },
  { path: 'bakery/shop.py', shownAs: 'lines', definitions: [{ name: 'sell_dozen', kind: 'function', line: 5, signatureLines: [5], scopeLines: [] }] },
];

describe('the JSON map', () => {
  test('carries what the map shows, the text, its tokens and budget, and the whole ranking, as the README documents', async () => {
    const text = await cli(ARGS);
    const json = JSON.parse(await cli([...ARGS, '--format', 'json'])) as MapJson;
    expect(mapJsonErrors(json)).toEqual([]);
    expect(json.text).toBe(text);
    expect(json).toMatchObject({ tokens: 98, budget: 100 });
    expect(json.totals).toEqual({ files: 7, definitions: 61, references: 82, tokens: 98 });
    expect(json.shown.map(({ rank: _, ...file }) => file)).toEqual(SHOWN);
    // Each shown file's rank is the ranking's; the whole ranking is there though the map's was cut.
    for (const file of json.shown) expect(file.rank).toBe(json.files.find((ranked) => ranked.path === file.path)?.rank ?? 0);
    expect(json.files).toHaveLength(7);
    expect(json.definitions).toHaveLength(61);
    expect(json.unlisted).toEqual({ files: 0, definitions: 0 });
  });

  test("--ranked N lists the head of the ranking and counts the rest: a real repository's whole ranking runs to megabytes", async () => {
    const whole = JSON.parse(await cli([...ARGS, '--format', 'json'])) as MapJson;
    const head = JSON.parse(await cli([...ARGS, '--format', 'json', '--ranked', '5'])) as MapJson;
    expect(mapJsonErrors(head)).toEqual([]);
    expect(head.definitions).toEqual(whole.definitions.slice(0, 5));
    // Each listed file carries the definitions of the listed pairs alone.
    const listed = (path: string, name: string) => head.definitions.some((pair) => pair.path === path && pair.name === name);
    expect(head.files).toEqual(
      whole.files.slice(0, 5).map((file) => ({ ...file, definitions: file.definitions.filter(({ name }) => listed(file.path, name)) })),
    );
    expect(head.files.flatMap((file) => file.definitions).length).toBeGreaterThan(0);
    expect(head.unlisted).toEqual({ files: 2, definitions: 56 });
    expect({ ...head, files: whole.files, definitions: whole.definitions, unlisted: whole.unlisted }).toEqual(whole);
    const none = JSON.parse(await cli([...ARGS, '--format', 'json', '--ranked', '0'])) as MapJson;
    expect([none.files, none.definitions, none.unlisted]).toEqual([[], [], { files: 7, definitions: 61 }]);
  });

  test("in aider's style: a definition's line, and grep-ast's header lines of the scopes holding it (its own head's too)", async () => {
    const json = JSON.parse(await cli([...ARGS, '--format', 'json', '--style', 'aider'])) as MapJson;
    expect(mapJsonErrors(json)).toEqual([]);
    expect(json.text).toBe(await cli([...ARGS, '--style', 'aider']));
    // The block also shows line 6, blank, which grep-ast adds after the docstring (line 5) and no definition owns.
    expect(json.shown.map(({ rank: _, ...file }) => file)).toEqual([
      { path: 'README.md', shownAs: 'path', definitions: [] },
      {
        path: 'bakery/oven.py',
        shownAs: 'lines',
        definitions: [
          { name: 'Oven', kind: 'class', line: 4, signatureLines: [4], scopeLines: [] },
          { name: 'preheat', kind: 'method', line: 11, signatureLines: [11], scopeLines: [4, 5, 10, 12, 13] },
        ],
      },
      { path: 'bakery/dough.py', shownAs: 'lines', definitions: [{ name: 'Dough', kind: 'class', line: 1, signatureLines: [1], scopeLines: [] }] },
      // aider's lines cost more: sell_dozen no longer fits, its file is named alone.
      { path: 'bakery/shop.py', shownAs: 'path', definitions: [] },
    ]);
  });

  test("the library's map survives JSON.stringify with what it shows, after buildMap closed the store", async () => {
    const map = await buildMap({ root, maxTokens: 100, query: QUERY });
    const copy = JSON.parse(JSON.stringify(map)) as { text: string; shown: MapJson['shown']; ranked: { definitions: unknown[] } };
    expect(copy.shown).toEqual(map.shown);
    expect(copy.shown.map(({ rank: _, ...file }) => file)).toEqual(SHOWN);
    expect(copy.text).toBe(map.text);
    expect(copy.ranked.definitions).toHaveLength(61);
  });

  test("an open repository's map keeps what it showed and its ranking, read after the next map re-indexed the files", async () => {
    const copy = copyFixture('jsonMap');
    const repo = await openRepoMap({ root: copy });
    try {
      const first = await repo.map({ maxTokens: 100, query: QUERY });
      const oven = join(copy, 'bakery/oven.py');
      writeFileSync(oven, `\n\n${readFileSync(oven, 'utf8')}`);
      writeFileSync(join(copy, 'bakery/rolls.py'), 'from bakery.dough import Dough\n\n\ndef roll():\n    return Dough("wheat")\n');
      const second = await repo.map({ maxTokens: 100, query: QUERY });
      expect(second.shown.find((file) => file.path === 'bakery/oven.py')!.definitions[0]).toMatchObject({ name: 'Oven', line: 6 });
      expect(second.ranked.files).toHaveLength(8);
      expect(first.shown.map(({ rank: _, ...file }) => file)).toEqual(SHOWN);
      expect(first.ranked.files).toHaveLength(7);
      expect(first.ranked.definitions).toHaveLength(61);
    } finally {
      await repo.close();
    }
  });

  test('a map served a kept ranking completes it, read after the next map ranked new tables of as many files, on its own tables', async () => {
    const copy = copyFixture('jsonMap');
    const repo = await openRepoMap({ root: copy });
    try {
      const ranked = await repo.map({ maxTokens: 100 });
      // Served the ranking the first map kept: it met no PageRank.
      const served = await repo.map({ maxTokens: 100 });
      // Uses of the oven from the best-ranked file: oven.py moves up, as many files as before.
      const dough = join(copy, 'bakery/dough.py');
      writeFileSync(dough, `${readFileSync(dough, 'utf8')}\n\ndef feed(oven):\n    return oven.preheat(1), oven.bake(2), Oven(3)\n`);
      const next = await repo.map({ maxTokens: 100 });
      expect(next.ranked.files.map(({ path }) => path)).not.toEqual(ranked.ranked.files.map(({ path }) => path));
      expect(served.ranked).toEqual(ranked.ranked);
    } finally {
      await repo.close();
    }
  });

  // The task names oven.py by path and preheat as code; -i names Dough, which dough.py defines.
  const EXPLAIN_ARGS = ['map', root, '-t', '100', '-q', 'The oven in bakery/oven.py bakes a loaf too dark: `preheat` ignores minutes', '-i', 'Dough'];

  test('--explain: on stderr, why each shown file ranks where it does and what the budget cut; the map on stdout unchanged', async () => {
    const plain = await runCli(EXPLAIN_ARGS);
    const explained = await runCli([...EXPLAIN_ARGS, '--explain']);
    expect(explained.code).toBe(0);
    expect(explained.stdout).toBe(plain.stdout);
    expect(explained.stderr).toBe(
      lines(
        'repomap: explain: why each shown file ranks where it does',
        'README.md: unranked, rank 0, shown as an important file',
        'bakery/oven.py: #1 in the ranking, rank 3.72',
        '  score: text 1.2, names 1, mentionedPaths 1, mentionedNames 0.5, graph 0.0235',
        '  query terms: oven, bakery, py, bakes, loaf, preheat, minutes',
        '  mentioned paths: bakery/oven.py',
        '  mentioned names: preheat',
        '  imports: bakery/dough.py',
        '  imported by: bakery/shop.py',
        '  incoming: Oven 0.00836, bake 0.000916, preheat 0.000916, __init__ 0.000745',
        'bakery/shop.py: #2 in the ranking, rank 0.728',
        '  score: text 0.723, graph 0.00564',
        '  query terms: oven, in, bakery, py, preheat',
        '  imports: bakery/oven.py, bakery/dough.py',
        '  imported by: tests/test_shop.py',
        '  incoming: sell_dozen 0.00916, open_shop 0.0000916',
        'bakery/dough.py: #3 in the ranking, rank 0.351',
        '  score: text 0.201, graph 0.15',
        '  query terms: bakery, py, minutes',
        '  mentioned identifiers: Dough',
        '  imported by: bakery/oven.py, bakery/shop.py',
        '  incoming: Dough 0.932, __init__ 0.00576, proof 0.00129, knead 0.000916',
        'repomap: explain: the map holds 98 of 100 tokens; next in the ranking:',
        '  bakery/oven.py bake (line 17): +17 tokens',
        '  bakery/oven.py __init__ (line 7): +17 tokens',
        '  bakery/shop.py open_shop (line 10): +9 tokens',
        '  bakery/dough.py proof (line 9): +19 tokens',
        '  bakery/recipes.py: +6 tokens',
      ),
    );
  });

  test('--explain --format json: an explain field as documented; each cut entry costs what rendering the map with it costs', async () => {
    const json = JSON.parse(await cli([...EXPLAIN_ARGS, '--explain', '--format', 'json'])) as MapJson & { explain: MapExplanation };
    expect(mapJsonErrors(json)).toEqual([]);
    expect(json.text).toBe(await cli(EXPLAIN_ARGS));
    const oven = json.explain.files.find((file) => file.path === 'bakery/oven.py')!;
    expect(oven).toMatchObject({
      shownFor: 'rank',
      place: 1,
      queryTerms: ['oven', 'bakery', 'py', 'bakes', 'loaf', 'preheat', 'minutes'],
      mentionedPaths: ['bakery/oven.py'],
      mentionedNames: ['preheat'],
      mentionedIdents: [],
      imports: ['bakery/dough.py'],
      importedBy: ['bakery/shop.py'],
    });
    // Its parts make its rank.
    const { text, names, mentionedPaths, mentionedNames, graph, recency, coChange, role } = oven.parts;
    expect(role * ((text + names + mentionedPaths + mentionedNames + graph) * recency + coChange)).toBeCloseTo(oven.rank, 12);
    expect(json.explain.files.find((file) => file.path === 'bakery/dough.py')!.mentionedIdents).toEqual(['Dough']);
    expect(json.explain.cut).toEqual({
      budget: 100,
      tokens: 98,
      next: [
        { path: 'bakery/oven.py', name: 'bake', lines: [17], tokens: 17, fits: false },
        { path: 'bakery/oven.py', name: '__init__', lines: [7], tokens: 17, fits: false },
        { path: 'bakery/shop.py', name: 'open_shop', lines: [10], tokens: 9, fits: false },
        { path: 'bakery/dough.py', name: 'proof', lines: [9], tokens: 19, fits: false },
        { path: 'bakery/recipes.py', name: null, lines: [], tokens: 6, fits: false },
      ],
    });

    // Rendered from the store's records: what the map shows makes its text, and each cut entry added costs what it says.
    const index = await openIndex({ root });
    try {
      const shown = json.shown.map((file) => ({ path: file.path, lines: file.definitions.map((definition) => definition.line) }));
      const render = (more: { path: string; lines: number[] }[]) => renderMap([...shown, ...more], (path) => index.store.renderPart(path));
      expect(render([])).toBe(json.text);
      const mapTokens = encoding.encode(json.text).length;
      expect(mapTokens).toBe(98);
      for (const entry of json.explain.cut.next) expect(encoding.encode(render([entry])).length - mapTokens).toBe(entry.tokens);
    } finally {
      await index.store.close();
    }
  });

  test("the library explains when asked, and only then; aider's ranking is all graph", async () => {
    expect((await buildMap({ root, maxTokens: 100, query: QUERY })).explain).toBeUndefined();
    const map = await buildMap({ root, maxTokens: 100, ranking: 'aider', explain: true });
    for (const file of map.explain!.files) {
      expect(file.parts).toMatchObject({ text: 0, names: 0, recency: 1, role: 1 });
      expect(file.parts.graph).toBe(file.rank);
    }
  });
});
