import { describe, expect, test } from 'vitest';
import { buildMap } from '../../dist/src/index.js';
import { runCli } from '../support/cli.js';
import { copyFixture } from '../support/mapFixture.js';
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
});
