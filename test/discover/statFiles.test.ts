import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { discoverFiles } from '../../dist/src/discover/discoverFiles.js';
import { CHUNK_FILES, FileStats, STAT_KIND, statChunkOf, statInsideRoot } from '../../dist/src/discover/statFiles.js';
import { statWorkerFile } from '../../dist/src/packageFiles.js';

/** The listed files' stamps, taken by two threads in a tree of many files (src/discover/statFiles.ts): what one thread takes. */

/** A tree of `count` files in 100 folders, with the odd entries a listing may hold: links in and out of the root, a folder, a gone file. */
function manyFiles(count: number): { root: string; paths: string[] } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'repomap-stat-')));
  const outside = mkdtempSync(join(tmpdir(), 'repomap-stat-outside-'));
  writeFileSync(join(outside, 'secret.py'), 'x = 1\n');
  const paths: string[] = [];
  for (let folder = 0; folder < 100; folder++) mkdirSync(join(root, `d${folder}`));
  for (let i = 0; i < count; i++) {
    const path = `d${i % 100}/f${i}.py`;
    writeFileSync(join(root, path), `x = ${i}\n`);
    paths.push(path);
  }
  symlinkSync(join(root, 'd0/f0.py'), join(root, 'd1/inside.py'));
  symlinkSync(join(outside, 'secret.py'), join(root, 'd2/outside.py'));
  symlinkSync(join(root, 'nowhere.py'), join(root, 'd3/dangling.py'));
  mkdirSync(join(root, 'd4/folder.py'));
  // Spread through the list, so both threads meet some.
  paths.splice(5, 0, 'd1/inside.py');
  paths.splice(9_000, 0, 'd2/outside.py');
  paths.splice(15_000, 0, 'd3/dangling.py', 'd4/folder.py', 'd5/gone.py');
  return { root, paths };
}

describe('file stamps', () => {
  test('taken by two threads in a tree of 21,000 files: the stamps one thread takes, links and gone files alike', () => {
    const { root, paths } = manyFiles(21_000);
    const expected = paths.map((path) => statInsideRoot(root, path));
    expect(expected.filter((stamp) => stamp === null)).toHaveLength(4);
    const stats = new FileStats(root);
    for (const path of paths) stats.add(path);
    expect(stats.finish()).toEqual({ paths, stamps: expected });
    // Through discovery: the walk's list, stated in parallel, drops what is no file inside the root.
    const { files } = discoverFiles({ root });
    expect(files).toHaveLength(21_001);
    expect(files.find((file) => file.path === 'd1/inside.py')).toMatchObject(expected[5]!);
    expect(files.some((file) => file.path === 'd2/outside.py')).toBe(false);
  }, 120_000);

  test('the worker states every chunk it is handed that nobody claimed, and ends on a null', async () => {
    const { root, paths } = manyFiles(3_000);
    const chunks = Array.from({ length: Math.ceil(paths.length / CHUNK_FILES) }, (_, at) =>
      statChunkOf(root, paths.slice(at * CHUNK_FILES, (at + 1) * CHUNK_FILES)),
    );
    // The second is claimed here first: the worker leaves it.
    Atomics.store(chunks[1]!.state, 0, 1);
    const worker = new Worker(statWorkerFile());
    for (const chunk of chunks) worker.postMessage(chunk);
    worker.postMessage(null);
    expect(await new Promise((resolve) => worker.once('exit', resolve))).toBe(0);
    expect(chunks.map((chunk) => chunk.state[1])).toEqual([1, 0, 1]);
    expect(chunks[0]!.kinds[5]).toBe(STAT_KIND.link);
    expect(Array.from(chunks[1]!.kinds).every((kind) => kind === STAT_KIND.pending)).toBe(true);
    for (const at of [0, 2]) {
      const chunk = chunks[at]!;
      chunk.kinds.forEach((kind, i) => {
        const stamp = statInsideRoot(root, paths[at * CHUNK_FILES + i]!);
        if (kind === STAT_KIND.file)
          expect(Array.from(chunk.stamps.subarray(4 * i, 4 * i + 4))).toEqual([stamp!.mtimeMs, stamp!.size, stamp!.ctimeMs, stamp!.ino]);
        else expect(stamp === null || kind === STAT_KIND.link).toBe(true);
      });
    }
  });
});
