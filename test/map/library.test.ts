import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { buildMap, mapJson, openRepoMap } from '../../dist/src/index.js';
import { definerSlots, filePaths, pathOfSlot } from '../../dist/src/rank/tableLookups.js';
import { runCli } from '../support/cli.js';

/**
 * The library: buildMap makes the CLI's map; openRepoMap keeps the store open and maps again
 * and again, each map as a fresh buildMap would make it, changed files re-indexed first.
 */
const FIXTURE = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

function copyOfFixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-library-'));
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

describe('the library API', () => {
  const root = copyOfFixture();
  const mapper = openRepoMap({ root });
  afterAll(async () => (await mapper).close());

  test('buildMap prints what the CLI prints, and reports the index totals', async () => {
    const cli = await runCli(['map', root, '-t', '300', '-c', join(root, 'catalog/catalog.go')]);
    expect(cli.code).toBe(0);
    const map = await buildMap({ root, maxTokens: 300, chatFiles: [join(root, 'catalog/catalog.go')] });
    expect(map.text).toBe(cli.stdout);
    const json = await runCli(['map', root, '-t', '300', '--format', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(mapJson(await buildMap({ root, maxTokens: 300 })))));
    expect(map.report).toMatchObject({ files: 8, definitions: 25, references: 64, budget: 300 });
    expect(map.report.tokens).toBeLessThanOrEqual(300);
  });

  test('an open repository maps as buildMap does, request after request', async () => {
    const open = await mapper;
    for (const request of [{ maxTokens: 200 }, { maxTokens: 500, mentionedIdents: ['price_with_tax'] }, { maxTokens: 200 }]) {
      expect((await open.map(request)).text).toBe((await buildMap({ root, ...request })).text);
    }
  });

  test('a file changed, added or deleted between maps is in the next one', async () => {
    const open = await mapper;
    const before = await open.map({ maxTokens: 4096 });
    writeFileSync(join(root, 'catalog/discounts.go'), 'package catalog\n\nfunc SeasonalDiscount(cents int) int {\n\treturn cents / 10\n}\n');
    writeFileSync(join(root, 'api/server.py'), 'def price_with_tax(cents: int) -> int:\n    return SeasonalDiscount(cents)\n');
    rmSync(join(root, 'README.md'));
    const after = await open.map({ maxTokens: 4096 });
    expect(before.text).toContain('README.md');
    expect(after.text).not.toContain('README.md');
    expect(after.text).toContain('│func SeasonalDiscount(cents int) int {');
    expect(after.text).toBe((await buildMap({ root, maxTokens: 4096 })).text);
    expect(after.report.files).toBe(before.report.files);
  });

  test('the ranking tables of an open repository, brought up to date before each read', async () => {
    const open = await openRepoMap({ root: copyOfFixture() });
    const paths = [
      'README.md',
      'api/server.py',
      'catalog/catalog.go',
      'client/src/bookstore/CatalogClient.java',
      'pricing/src/lib.rs',
      'scripts/seed.js',
      'web/src/App.tsx',
      'web/src/api.ts',
    ];
    expect(filePaths(await open.identifierTables())).toEqual(paths);
    writeFileSync(join(open.root, 'api/extra.py'), 'def seasonal_discount(cents):\n    return cents\n');
    const tables = await open.identifierTables();
    expect(filePaths(tables)).toEqual([...paths.slice(0, 1), 'api/extra.py', ...paths.slice(1)]);
    expect(definerSlots(tables, 'seasonal_discount').map((slot) => pathOfSlot(tables, slot))).toEqual(['api/extra.py']);
    await open.close();
  });

  test('a closed repository maps no more', async () => {
    const open = await openRepoMap({ root: copyOfFixture() });
    const pending = open.map({ maxTokens: 100 });
    await open.close();
    expect((await pending).text).not.toBe('');
    await expect(open.map({ maxTokens: 100 })).rejects.toThrow('closed');
  });
});
