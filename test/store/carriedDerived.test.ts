import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { openTagStore } from '../../dist/src/store/tagStore.js';

/**
 * What is derived from the records stands across commits of restamped records (the same bytes
 * under new stamps) without being written again, and falls at the first commit of other bytes;
 * the stamps, which a restamp changes, never stand.
 */
test('derived values stand across restamp commits, values saved meanwhile too, and fall at the next commit of new bytes', async () => {
  const cacheDir = join(mkdtempSync(join(tmpdir(), 'repomap-carried-')), 'cache');
  const store = await openTagStore(dirname(cacheDir), cacheDir);
  const bytes = (text: string) => new TextEncoder().encode(text);
  const read = (key: string) => {
    const value = store.derivedValue(key);
    return value && new TextDecoder().decode(value);
  };
  try {
    await store.commit(new Map([['a.py', bytes('record a')]]));
    await store.saveDerivedValues(
      new Map([
        ['tables', bytes('tables of a')],
        ['stamps', bytes('stamps at 1')],
      ]),
      store.generation(),
    );
    await store.commit(new Map([['a.py', bytes('record a, restamped')]]), [], true);
    expect([read('tables'), read('stamps')]).toEqual(['tables of a', undefined]);
    // Saved after a restamp, stood on by the next one as well.
    await store.saveDerivedValues(new Map([['ranks', bytes('ranks of a')]]), store.generation());
    await store.commit(new Map([['a.py', bytes('record a, restamped again')]]), [], true);
    expect([read('tables'), read('ranks')]).toEqual(['tables of a', 'ranks of a']);
    await store.commit(new Map([['a.py', bytes('record a, edited')]]));
    expect([read('tables'), read('ranks')]).toEqual([undefined, undefined]);
  } finally {
    await store.close();
  }
});
