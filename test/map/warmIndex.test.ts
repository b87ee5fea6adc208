import { cpSync, mkdtempSync } from 'node:fs';
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
  expect(kept).toEqual(expect.arrayContaining(['identifier-tables', 'import-targets', 'written-import-targets', 'file-ranks']));

  const first = await runCli(['map', root, '--cache-dir', warm, '--verbose']);
  expect(first.code).toBe(0);
  expect(stagesOf(first.stderr)).toEqual(WARM_MAP_STAGES);
  const cold = await runCli(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-cold-cache-'))]);
  expect(first.stdout).toBe(cold.stdout);
});
