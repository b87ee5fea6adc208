import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { openIndex } from '../../dist/src/index.js';
import { renderMap } from '../../dist/src/render/renderMap.js';
import { runCli } from '../support/cli.js';
import { type MapJson, mapJsonErrors } from '../support/mapJsonSchema.js';

/**
 * Maps of the real-code corpus slices (../shared/corpora/make-corpora.sh) at four budgets: never
 * over the budget, the packer's count equal to a full cl100k_base encode, the same bytes
 * whatever the number of workers, and a JSON whose `shown` renders its text. The slices are not in the repository: without them this skips.
 */
const CORPORA = process.env.REPOMAP_CORPORA ?? '/work/corpora';
const SLICES = ['python-500', 'go-500', 'java-500', 'rust-500', 'ts-500', 'js-500', 'mixed-500'].filter((slice) => existsSync(join(CORPORA, 'slices', slice)));
if (SLICES.length === 0) {
  console.warn(`corpus map checks skipped: no slices in ${CORPORA}/slices (build them with ../shared/corpora/make-corpora.sh ${CORPORA})`);
}
const BUDGETS = [256, 1024, 4096, 16384];
/** A cold index of a slice takes 4–9 s on a moderately loaded 2-core machine, past 30 s on a heavily loaded one. */
const COLD_INDEX_TIMEOUT_MS = 240_000;
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

describe.skipIf(SLICES.length === 0).each(SLICES)('the %s slice', { timeout: COLD_INDEX_TIMEOUT_MS }, (slice) => {
  const root = join(CORPORA, 'slices', slice);
  /** The store of two workers, which the first map makes. */
  const cacheDir = mkdtempSync(join(tmpdir(), `repomap-${slice}-`));

  test.each(BUDGETS)('at %i tokens: within the budget, counted exactly', async (budget) => {
    const result = await runCli(['map', root, '-t', String(budget), '--cache-dir', cacheDir, '--jobs', '2', '--verbose']);
    expect(result.code).toBe(0);
    const tokens = encoding.encode(result.stdout).length;
    expect(tokens).toBeLessThanOrEqual(budget);
    expect(result.stderr).toContain(`, ${tokens} tokens (budget ${budget})`);
  });

  test('the same bytes from a store built by one worker or two', async () => {
    const one = await runCli(['map', root, '-t', '2048', '--jobs', '1', '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-one-'))]);
    const two = await runCli(['map', root, '-t', '2048', '--jobs', '2', '--cache-dir', cacheDir]);
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  });

  test.each(['signatures', 'aider'])('--format json --style %s: the documented schema, and what it shows renders its text', async (style) => {
    const result = await runCli(['map', root, '-t', '2048', '--cache-dir', cacheDir, '--jobs', '2', '--format', 'json', '--style', style]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as MapJson;
    expect(mapJsonErrors(json)).toEqual([]);
    const index = await openIndex({ root, cacheDir, jobs: 2 });
    try {
      const entries = json.shown.map((file) => ({ path: file.path, lines: file.definitions.map((definition) => definition.line) }));
      expect(renderMap(entries, (path) => index.store.renderPart(path), { style: style as 'signatures' | 'aider' })).toBe(json.text);
    } finally {
      await index.store.close();
    }
  });
});
