import { appendFileSync, cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { openIndex } from '../../dist/src/indexing/indexRepository.js';
import { runCli, stagesOf, WARM_MAP_STAGES } from '../support/cli.js';

/** `repomap index` leaves the store warm: the first map after it is a warm map. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

test('after index, the first map builds no tables and loads no tokenizer, and is the map a cold store gives', async () => {
  // Outside any git work tree: no history, so the map reads the same whatever the repository's log.
  const root = mkdtempSync(join(tmpdir(), 'repomap-warm-'));
  cpSync(POLYGLOT, root, { recursive: true });
  const warm = mkdtempSync(join(tmpdir(), 'repomap-warm-cache-'));
  expect((await runCli(['index', root, '--cache-dir', warm])).code).toBe(0);

  const { store } = await openIndex({ root, cacheDir: warm });
  const kept = store.derivedKeys();
  await store.close();
  expect(kept).toEqual(expect.arrayContaining(['identifier-tables', 'lexical-tables', 'import-targets', 'written-import-targets', 'file-ranks']));

  const first = await runCli(['map', root, '--cache-dir', warm, '--verbose']);
  expect(first.code).toBe(0);
  expect(stagesOf(first.stderr)).toEqual(WARM_MAP_STAGES);
  const cold = await runCli(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-cold-cache-'))]);
  expect(first.stdout).toBe(cold.stdout);
});

test('index after a change brings the lexical tables up to date too: the next map with a task only reads them', async () => {
  const root = mkdtempSync(join(tmpdir(), 'repomap-warm-'));
  cpSync(POLYGLOT, root, { recursive: true });
  const cache = mkdtempSync(join(tmpdir(), 'repomap-warm-cache-'));
  expect((await runCli(['index', root, '--cache-dir', cache])).code).toBe(0);
  const python = readdirSync(root, { recursive: true, encoding: 'utf8' }).find((path) => path.endsWith('.py'))!;
  appendFileSync(join(root, python), '\n\ndef parse_pricing_table():\n    return 1\n');
  // A map without a task patches the identifier tables and leaves the lexical ones behind.
  expect(stagesOf((await runCli(['map', root, '--cache-dir', cache, '--verbose'])).stderr).filter((stage) => stage.includes('lexical'))).toEqual([]);
  appendFileSync(join(root, python), '\n\ndef price_rows():\n    return 2\n');
  expect((await runCli(['index', root, '--cache-dir', cache])).code).toBe(0);
  const task = await runCli(['map', root, '--cache-dir', cache, '--verbose', '-q', 'parse the pricing table']);
  expect(task.code).toBe(0);
  expect(stagesOf(task.stderr).filter((stage) => stage.includes('lexical'))).toEqual(['read lexical tables']);
  const cold = await runCli(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-cold-cache-')), '-q', 'parse the pricing table']);
  expect(task.stdout).toBe(cold.stdout);
});
