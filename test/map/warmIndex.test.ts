import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { openIndex } from '../../dist/src/indexing/indexRepository.js';
import { runCli } from '../support/cli.js';

/** `repomap index` leaves the store warm: the first map after it is a warm map. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

const stages = (stderr: string) => [...(/timing: (.*)/.exec(stderr)?.[1] ?? '').matchAll(/([a-z ]+) [\d.]+ ms/g)].map((match) => match[1]!.trim());

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
  expect(stages(first.stderr)).toEqual([
    'open store',
    'discover',
    'crash check',
    'compare stamps',
    'save stamps',
    'tally',
    'read tables',
    'rank',
    'pack',
    'save computed',
  ]);
  const cold = await runCli(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-cold-cache-'))]);
  expect(first.stdout).toBe(cold.stdout);
});
