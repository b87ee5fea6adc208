import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { StoreFiles } from '../../dist/src/store/storeFiles.js';
import { openTagStore, STORE_FILE } from '../../dist/src/store/tagStore.js';

/**
 * A store is checked whole on its first opening after it changed (0.2 s at 9,320 files, 1.8 s
 * at 93,200): a run that found it sound and changed it by its own writes alone notes it sound
 * again when it closes, so the next run reads it at once; writes by another process between
 * leave it to be checked.
 */
const scratch = () => join(mkdtempSync(join(tmpdir(), 'repomap-sound-')), 'cache');
const checked = (cacheDir: string) => {
  const state = new StoreFiles(join(cacheDir, STORE_FILE)).state();
  return state.kind === 'ours' && state.checked;
};
const value = (text: string) => new TextEncoder().encode(text);

describe('a store changed by one run’s own writes', () => {
  test('is noted sound when that run closes it, and checked by the next otherwise', async () => {
    const cacheDir = scratch();
    // Made, then checked by a second opening: sound.
    await (await openTagStore(dirname(cacheDir), cacheDir)).close();
    await (await openTagStore(dirname(cacheDir), cacheDir)).close();
    expect(checked(cacheDir)).toBe(true);

    const store = await openTagStore(dirname(cacheDir), cacheDir);
    await store.saveTokenCounts(new Map([['│def f():\n', 5]]));
    expect(checked(cacheDir)).toBe(false);
    await store.close();
    expect(checked(cacheDir)).toBe(true);
  });

  test('written twice with a turn between (a map saving git history, then what it computed): still noted sound', async () => {
    const cacheDir = scratch();
    await (await openTagStore(dirname(cacheDir), cacheDir)).close();
    await (await openTagStore(dirname(cacheDir), cacheDir)).close();
    const store = await openTagStore(dirname(cacheDir), cacheDir);
    await store.saveGitHistory(value('history'));
    // lmdb-js commits after `transactionSync` returns: by the next write, the file's stamp has moved under it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.saveTokenCounts(new Map([['│def h():\n', 6]]));
    await store.close();
    expect(checked(cacheDir)).toBe(true);
  });

  test('made by this run and written by it alone: noted sound when it closes', async () => {
    const cacheDir = scratch();
    const store = await openTagStore(dirname(cacheDir), cacheDir);
    await store.saveTokenCounts(new Map([['│def g():\n', 4]]));
    await store.close();
    expect(checked(cacheDir)).toBe(true);
  });

  test('written by two runs at once, it is left to the next run to check', async () => {
    const cacheDir = scratch();
    await (await openTagStore(dirname(cacheDir), cacheDir)).close();
    await (await openTagStore(dirname(cacheDir), cacheDir)).close();
    const first = await openTagStore(dirname(cacheDir), cacheDir);
    const second = await openTagStore(dirname(cacheDir), cacheDir);
    await second.saveTokenCounts(new Map([['│class A:\n', 3]]));
    // The first run's write finds the file changed by the second's: it vouches for neither.
    await first.saveGitHistory(value('history'));
    await first.close();
    expect(checked(cacheDir)).toBe(false);
    await second.close();
    expect(checked(cacheDir)).toBe(false);
  });
});
