import { mkdtempSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { type CliResult, runCli } from '../support/cli.js';
import { codeSlice } from '../support/codeSlice.js';

/**
 * A damaged store never crashes a run and never serves what it no longer holds: a damaged file
 * is recreated, a damaged record parsed again, damaged tables rebuilt and damaged token counts
 * counted again, each with one warning line; never a signal, never a stack trace, never a map
 * over its budget.
 */
const BUDGET = 256;
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

const storeOf = (root: string) => join(root, '.repomap', STORE_FILE);

/** A map run that neither crashed nor printed a stack trace, each stderr line one of ours. */
async function map(root: string, args: string[] = []): Promise<CliResult> {
  const result = await runCli(['map', root, '-t', String(BUDGET), ...args]);
  expect(result.signal).toBeNull();
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const line of result.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^repomap: /);
  if (result.code === 0) expect(encoding.encode(result.stdout).length).toBeLessThanOrEqual(BUDGET);
  return result;
}

/** The map of `root` made from a fresh store elsewhere: what a damaged store must not change. */
async function freshMap(root: string): Promise<string> {
  const result = await map(root, ['--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-fresh-'))]);
  expect(result.code).toBe(0);
  return result.stdout;
}

const warningLines = (result: CliResult) => result.stderr.split('\n').filter((line) => line.startsWith('repomap: warning: '));

describe('a damaged store', () => {
  test('a truncated store file is recreated with one warning, not a bus error', async () => {
    const root = codeSlice(['rank']);
    expect((await map(root)).code).toBe(0);
    truncateSync(storeOf(root), 10_000);
    const result = await map(root);
    expect(result.code).toBe(0);
    expect(warningLines(result)).toEqual([expect.stringMatching(/^repomap: warning: tag store .* is damaged \(.*\); recreating it$/)]);
    expect(result.stdout).toBe(await freshMap(root));
    expect((await map(root)).stderr).toBe('');
  });
});
