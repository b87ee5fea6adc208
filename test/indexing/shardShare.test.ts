import { describe, expect, test } from 'vitest';
import type { DiscoveredFile } from '../../dist/src/discover/discoverFiles.js';
import { shardShare } from '../../dist/src/indexing/shardShare.js';

const file = (path: string, size: number, language: DiscoveredFile['language'] = 'python'): DiscoveredFile => ({
  path,
  size,
  language,
  mtimeMs: 1,
  ctimeMs: 1,
  ino: 1,
});

const paths = (files: DiscoveredFile[]) => files.map((entry) => entry.path);

describe('the parts of a sharded index', () => {
  // 100 parse bytes: a.py 10, b.py 40, c.md none, d.py 20, e.py 30 (f.py is over the limit, none).
  const files = [file('a.py', 10), file('b.py', 40), file('c.md', 500, null), file('d.py', 20), file('e.py', 30), file('f.py', 5000)];

  test('runs of paths cut at even shares of parse bytes; a file no worker reads goes with the file after it', () => {
    expect([1, 2].map((part) => paths(shardShare(files, { part, of: 2 }, 1000)))).toEqual([
      ['a.py', 'b.py'],
      ['c.md', 'd.py', 'e.py', 'f.py'],
    ]);
    expect([1, 2, 3].map((part) => paths(shardShare(files, { part, of: 3 }, 1000)))).toEqual([
      ['a.py', 'b.py'],
      ['c.md', 'd.py'],
      ['e.py', 'f.py'],
    ]);
  });

  test('every file falls in exactly one part, whatever the count of parts', () => {
    for (const of of [1, 2, 3, 4, 5, 6, 7, 10]) {
      const parts = Array.from({ length: of }, (_, index) => paths(shardShare(files, { part: index + 1, of }, 1000)));
      expect(parts.flat()).toEqual(paths(files));
    }
  });

  test('with no bytes to share, files are shared by count', () => {
    const notes = ['a.md', 'b.md', 'c.md', 'd.md'].map((path) => file(path, 10, null));
    expect([1, 2].map((part) => paths(shardShare(notes, { part, of: 2 }, 1000)))).toEqual([
      ['a.md', 'b.md'],
      ['c.md', 'd.md'],
    ]);
  });
});
