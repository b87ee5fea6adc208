import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli, stagesOf, WARM_MAP_STAGES } from '../support/cli.js';

/** `repomap map` on the fixture repos: within budget by a full encode, and reproducible. */
const FIXTURES = fileURLToPath(new URL('../../fixtures/languages', import.meta.url));
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

function copyOf(fixture: string): string {
  const root = mkdtempSync(join(tmpdir(), `repomap-map-${fixture}-`));
  cpSync(join(FIXTURES, fixture), root, { recursive: true });
  return root;
}

async function map(root: string, args: string[]): Promise<string> {
  const result = await runCli(['map', root, ...args]);
  if (result.code !== 0) throw new Error(`repomap map failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

describe('repomap map within its budget', () => {
  const polyglot = copyOf('polyglot');
  const python = copyOf('python');

  test.each([
    ['polyglot', 64],
    ['polyglot', 256],
    ['polyglot', 1024],
    ['python', 256],
    ['python', 4096],
  ])('%s at %i tokens: within the budget, and the packer counted what a full encode counts', async (fixture, budget) => {
    const result = await runCli(['map', fixture === 'polyglot' ? polyglot : python, '-t', String(budget), '--verbose']);
    expect(result.code).toBe(0);
    const tokens = encoding.encode(result.stdout).length;
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThanOrEqual(budget);
    expect(result.stderr).toContain(`, ${tokens} tokens (budget ${budget})`);
  });

  test('identical bytes across runs and across --jobs 1 and 2', async () => {
    const first = await map(polyglot, ['-t', '512', '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-c1-')), '--jobs', '1']);
    const second = await map(polyglot, ['-t', '512', '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-c2-')), '--jobs', '2']);
    expect(second).toBe(first);
    expect(await map(polyglot, ['-t', '512'])).toBe(first);
  });

  test('a warm map parses nothing, builds no tables and loads no tokenizer: --verbose names its stages', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-tokens-'));
    // The fixture sits in this repository's work tree: the git signals' stage is test/map/gitSignals.test.ts's.
    const args = ['map', polyglot, '-t', '300', '--cache-dir', cacheDir, '--verbose', '--no-git-signals'];
    const first = await runCli(args);
    expect(stagesOf(first.stderr)).toEqual(expect.arrayContaining(['parse', 'build tables', 'load tokenizer']));
    const second = await runCli(args);
    expect(stagesOf(second.stderr)).toEqual(WARM_MAP_STAGES);
    expect(second.stdout).toBe(first.stdout);
  });

  test('a chat file steers the map and is left out of it', async () => {
    const text = await map(polyglot, ['-t', '1024', '-c', join(polyglot, 'web/src/App.tsx')]);
    expect(text).not.toContain('web/src/App.tsx');
    expect(text).toContain('web/src/api.ts:');
  });

  test('a budget of 0 makes no map: exit 2', async () => {
    const result = await runCli(['map', polyglot, '-t', '0']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
