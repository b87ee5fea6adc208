import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, readdirSync, rmdirSync, statfsSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { type CliResult, runCli } from '../support/cli.js';
import { codeSlice } from '../support/codeSlice.js';
import { readStoreEntries } from '../support/storeEntries.js';

/**
 * A full disk is one warning and the tags kept in memory, never a signal or a stack trace: the
 * cache folder is put on a tmpfs small enough that the store cannot be created, fills in the
 * middle of an index, or fills when a map saves what it derived after an index. Each run exits
 * 0, says so in one line, leaves no file but the store's own, and maps what a clean index maps.
 */
const FOLDERS = ['rank', 'map', 'store', 'indexing'];
const IN_MEMORY = /^repomap: warning: cannot (create|write) tag store .*\(\d+ KiB free on its disk, \d+ KiB needed\); keeping tags in memory$/;
/** What a cache folder may hold after a run: the store's files, nothing half written. */
const STORE_FILES = ['.gitignore', STORE_FILE, `${STORE_FILE}-id`, `${STORE_FILE}-lock`];

/** Why small file systems cannot be mounted here (mounting needs root), or null when they can. */
function whyNoMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  const probe = mkdtempSync(join(tmpdir(), 'repomap-mount-probe-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
  if (mounted.status !== 0) return `mount -t tmpfs failed: ${String(mounted.stderr).trim() || mounted.error?.message}`;
  spawnSync('umount', [probe]);
  rmdirSync(probe);
  return null;
}
const noMount = whyNoMount();

const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts) if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
});

/** A tmpfs of `kib` KiB, unmounted after all tests, even failed ones. */
function smallDisk(kib: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'repomap-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

/** Fills the disk of `dir` to its last byte. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = new Uint8Array(4096);
  try {
    while (statfsSync(dir).bavail > 0) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

/** `index` sums up on stderr, after any warning. */
const SUMMARY = /^repomap: \d+ files: /;

/** The warnings of a run that exited 0 without a signal, each the in-memory warning, and whatever else it printed on stderr but an index's summary. */
async function runWarnings(args: string[]): Promise<{ result: CliResult; warnings: string[] }> {
  const result = await runCli(args);
  expect([result.code, result.signal]).toEqual([0, null]);
  const lines = result.stderr.split('\n').filter(Boolean);
  if (args[0] === 'index') expect(lines.pop()).toMatch(SUMMARY);
  for (const line of lines) expect(line).toMatch(IN_MEMORY);
  return { result, warnings: lines };
}

/** A run that exited 0 without a signal and printed on stderr `warnings` in-memory warnings (and an index its summary). */
async function run(args: string[], warnings: 0 | 1): Promise<CliResult> {
  const outcome = await runWarnings(args);
  expect(outcome.warnings).toHaveLength(warnings);
  return outcome.result;
}

function leftovers(cacheDir: string): string[] {
  return readdirSync(cacheDir).filter((name) => !STORE_FILES.includes(name));
}

const recordCount = (cacheDir: string) => Object.keys(readStoreEntries(join(cacheDir, STORE_FILE), 'records')).length;

describe.skipIf(noMount !== null)(`a full disk${noMount ? ` (skipped: ${noMount})` : ''}`, () => {
  const root = codeSlice(FOLDERS);
  // Every file has a record, one with no grammar (powerIteration.wat) too.
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  let cleanMap: string | undefined;
  let cleanTags: string | undefined;
  let cleanStoreKib = 0;
  /** The map and tags of a clean index on a roomy disk, and the size of its store. */
  async function clean(): Promise<{ map: string; tags: string; storeKib: number }> {
    if (cleanMap === undefined || cleanTags === undefined) {
      const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-clean-'));
      cleanMap = (await run(['map', root, '--cache-dir', cacheDir], 0)).stdout;
      cleanTags = (await run(['tags', root, '--cache-dir', cacheDir], 0)).stdout;
      cleanStoreKib = statSync(join(cacheDir, STORE_FILE)).size / 1024;
    }
    return { map: cleanMap, tags: cleanTags, storeKib: cleanStoreKib };
  }

  test('a store that cannot be created: one warning, the map in memory, nothing left on the disk but its .gitignore', async () => {
    const cacheDir = join(smallDisk(64), 'cache');
    for (const command of ['index', 'map', 'tags']) {
      const result = await run([command, root, '--cache-dir', cacheDir, ...(command === 'index' ? ['--json'] : [])], 1);
      expect(result.stderr).toMatch(/cannot create tag store/);
      if (command !== 'index') expect(result.stdout).toBe((await clean())[command as 'map' | 'tags']);
      expect(readdirSync(cacheDir)).toEqual(['.gitignore']);
    }
  });

  test('a disk that fills when a map saves what it derived after an index: the store is still read, the map made in memory', async () => {
    const disk = smallDisk(4096);
    const cacheDir = join(disk, 'cache');
    await run(['index', root, '--cache-dir', cacheDir, '--json'], 0);
    expect(recordCount(cacheDir)).toBe(files);
    fill(disk);
    // The index saved what the default map derives; a chat file's ranking is new, and saving it fails.
    const chat = ['--chat-file', join(root, 'src', 'rank', readdirSync(join(root, 'src', 'rank')).sort()[0]!)];
    const map = await run(['map', root, '--cache-dir', cacheDir, ...chat], 1);
    expect(map.stderr).toMatch(/cannot write tag store/);
    expect(map.stdout).toBe((await run(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-clean-chat-')), ...chat], 0)).stdout);
    // The default map has nothing left to save: no warning.
    expect((await run(['map', root, '--cache-dir', cacheDir], 0)).stdout).toBe((await clean()).map);
    // Tags derive nothing to save: the store is read as it is.
    expect((await run(['tags', root, '--cache-dir', cacheDir], 0)).stdout).toBe((await clean()).tags);
    expect(leftovers(cacheDir)).toEqual([]);
    expect(recordCount(cacheDir)).toBe(files);
  });

  test('a disk full to its last byte when an index has files to parse: one warning, and every file still gets its tags', async () => {
    const disk = smallDisk(4096);
    const cacheDir = join(disk, 'cache');
    const tree = codeSlice(FOLDERS);
    await run(['index', tree, '--cache-dir', cacheDir, '--json'], 0);
    for (const name of readdirSync(join(tree, 'src', 'rank'))) appendFileSync(join(tree, 'src', 'rank', name), '\n// changed\n');
    fill(disk);
    const index = await run(['index', tree, '--cache-dir', cacheDir, '--json'], 1);
    expect(index.stderr).toMatch(/cannot write tag store/);
    expect(JSON.parse(index.stdout)).toMatchObject({ files, skipped: {} });
    expect(leftovers(cacheDir)).toEqual([]);
  });

  test('a campaign of disk sizes: each index, map and tags exits 0 with at most one warning and the clean map; the disk fills before, during and after the index', async () => {
    const { map: expectedMap, tags: expectedTags, storeKib } = await clean();
    const outcomes: string[] = [];
    // Eleven sizes up to three times the store (an index writes a value while LMDB keeps its last
    // copy): the slice is this project's own code, so the store grows with it.
    const largest = Math.ceil((3 * storeKib) / 64) * 64;
    for (let step = 0; step <= 10; step++) {
      const kib = 64 + Math.round(((largest - 64) * step) / 640) * 64;
      const cacheDir = join(smallDisk(kib), 'cache');
      const { warnings: warned } = await runWarnings(['index', root, '--cache-dir', cacheDir, '--json']);
      expect(warned.length).toBeLessThanOrEqual(1);
      const stored = readdirSync(cacheDir).includes(STORE_FILE) ? recordCount(cacheDir) : 0;
      if (warned.length === 0) outcomes.push('indexed');
      else if (stored === 0) outcomes.push('in memory from the start');
      else outcomes.push(stored < files ? 'filled mid-index' : 'filled after the records');
      for (const [command, expected] of [
        ['map', expectedMap],
        ['tags', expectedTags],
      ] as const) {
        const { result, warnings } = await runWarnings([command, root, '--cache-dir', cacheDir]);
        expect(warnings.length).toBeLessThanOrEqual(1);
        expect(result.stdout).toBe(expected);
      }
      expect(leftovers(cacheDir)).toEqual([]);
    }
    expect(outcomes).toContain('in memory from the start');
    expect(outcomes).toContain('filled mid-index');
    expect(outcomes).toContain('indexed');
  });
});
