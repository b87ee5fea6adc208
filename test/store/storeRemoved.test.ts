import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openTagStore, STORE_FILE } from '../../dist/src/store/tagStore.js';

/**
 * A store file removed under a run (another build of repomap, of another record version, clears
 * the cache folder of stores not its own) is one warning and the tags kept in memory: the run's
 * next write used to throw the file's ENOENT, uncaught.
 */
describe('a store removed under the run', () => {
  test('the next write keeps the tags in memory, with one warning', async () => {
    const cacheDir = join(mkdtempSync(join(tmpdir(), 'repomap-removed-')), 'cache');
    const warnings: string[] = [];
    const store = await openTagStore(dirname(cacheDir), cacheDir, (message) => warnings.push(message));
    try {
      expect(store.location).toBe(join(cacheDir, STORE_FILE));
      rmSync(join(cacheDir, STORE_FILE));
      await store.saveTokenCounts(new Map([['│def f():\n', 5]]));
      expect(warnings).toEqual([expect.stringMatching(/^cannot write tag store .*\(ENOENT: .*\); keeping tags in memory$/)]);
      expect(store.tokenCount('│def f():\n')).toBe(5);
    } finally {
      await store.close();
    }
  });
});
