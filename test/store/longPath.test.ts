import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { cliTags, indexJson, makeRepo, runCli } from '../support/cli.js';
import { readStoreEntries } from '../support/storeEntries.js';

/**
 * Linux allows paths of 4,095 bytes, LMDB keys of 1,978: a file at a longer path is stored under
 * a digest of it, and indexed, reused, mapped and pruned like any other.
 */
const FOLDER = 'd'.repeat(200);
/** Fifteen folders of 200 bytes: a path of 3,022 bytes, a key half again as long as LMDB takes. */
const DEEP = `${Array.from({ length: 15 }, () => FOLDER).join('/')}/deep.ts`;

function longPathRepo(): string {
  return makeRepo({
    [DEEP]: 'export function deepLongPathFunction(x: number): number {\n  return x + 1;\n}\n',
    'top.ts': "import { deepLongPathFunction } from './deep';\nexport function shallow(): number {\n  return deepLongPathFunction(1);\n}\n",
  });
}

const recordKeys = (root: string) => Object.keys(readStoreEntries(join(root, '.repomap', STORE_FILE), 'records')).sort();

describe('a path longer than an LMDB key', () => {
  test('is indexed, its record reused by the next run, mapped, and pruned once the file is gone', async () => {
    expect(Buffer.byteLength(DEEP)).toBe(3022);
    const root = longPathRepo();
    const first = await indexJson(root);
    expect([first.files, first.parsed, first.reused, first.removed, first.defs]).toEqual([2, 2, 0, 0, 2]);
    expect(recordKeys(root)).toEqual([expect.stringMatching(/^\/[0-9a-f]{64}$/), 'top.ts']);

    const second = await indexJson(root);
    expect([second.files, second.parsed, second.reused, second.removed]).toEqual([2, 0, 2, 0]);

    const tags = (await cliTags(root)).map((line) => line.replace(DEEP, '<deep>'));
    expect(tags).toEqual([
      '<deep>:1 def function deepLongPathFunction',
      '<deep>:-1 ref identifier deepLongPathFunction',
      '<deep>:-1 ref identifier x',
      '<deep>:-1 ref identifier x',
      'top.ts:2 def function shallow',
      'top.ts:3 ref call deepLongPathFunction',
    ]);
    const map = await runCli(['map', root]);
    expect([map.code, map.signal, map.stderr]).toEqual([0, null, '']);
    // A header is cut at the line limit, 100 characters by default.
    expect(map.stdout).toBe(
      `\n${'d'.repeat(100)}\n│export function deepLongPathFunction(x: number): number {\n⋮\n\ntop.ts:\n⋮\n│export function shallow(): number {\n⋮\n`,
    );

    rmSync(join(root, DEEP));
    const third = await indexJson(root);
    expect([third.files, third.parsed, third.reused, third.removed, third.defs]).toEqual([1, 0, 1, 1, 1]);
    expect(recordKeys(root)).toEqual(['top.ts']);
  });
});
