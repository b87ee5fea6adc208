import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { openStore } from '../../dist/src/indexing/indexRepository.js';
import { runCli } from '../support/cli.js';

/** The map of a request that personalizes nothing reads the ranking a map before it kept: always the map a fresh store gives. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const scratch = (name: string) => mkdtempSync(join(tmpdir(), `repomap-${name}-`));

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' });
}

async function keptRankings(root: string, cacheDir: string): Promise<string[]> {
  const store = await openStore(root, { cacheDir });
  try {
    return store.derivedKeys().filter((key) => key.startsWith('ranking:'));
  } finally {
    await store.close();
  }
}

describe('kept rankings in the store', () => {
  test('maps with a kept ranking equal a fresh store’s: again, after an edit, after a commit, for other budgets and test modes', async () => {
    const root = scratch('kept-ranking');
    cpSync(POLYGLOT, root, { recursive: true });
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'one');
    const cacheDir = scratch('kept-ranking-store');
    // JSON ranks as its text does (one key for both) and then completes the ranking.
    const requests = [[], ['-t', '256'], ['--tests', 'exclude'], ['-t', '4096'], ['-t', '256', '--format', 'json']];
    const keys = requests.length - 1;
    // In the fresh store each request is the first of its kind: ranked, not read.
    const expectFreshMaps = async () => {
      const freshStore = scratch('fresh-store');
      for (const request of requests) {
        const fresh = await runCli(['map', root, '--cache-dir', freshStore, ...request]);
        const kept = await runCli(['map', root, '--cache-dir', cacheDir, ...request]);
        expect(kept.code, kept.stderr).toBe(0);
        expect(kept.stdout).toBe(fresh.stdout);
      }
    };
    await expectFreshMaps();
    const first = await keptRankings(root, cacheDir);
    expect(first.length).toBe(keys);
    // Read this time, not made again: the same keys, and the same maps.
    await expectFreshMaps();
    expect(await keptRankings(root, cacheDir)).toEqual(first);

    appendFileSync(join(root, 'api/server.py'), '\n\ndef refund_order(order):\n    return price_with_tax(order)\n');
    await expectFreshMaps();
    // The tables changed: the rankings kept on the old ones are gone, those of the new ones kept.
    expect((await keptRankings(root, cacheDir)).length).toBe(keys);
    git(root, 'commit', '-qam', 'two');
    await expectFreshMaps();
    // The history moved, the tables did not: its rankings are kept beside the first ones'.
    expect((await keptRankings(root, cacheDir)).length).toBe(2 * keys);
    // A ninth kept ranking drops the eight before it.
    expect((await runCli(['map', root, '--cache-dir', cacheDir, '-t', '300'])).code).toBe(0);
    expect((await keptRankings(root, cacheDir)).length).toBe(1);
  });
});
