import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { CLI, cliTags, faultEnv, indexJson, makeRepo, runCli } from '../support/cli.js';

const STORE = join('.repomap', STORE_FILE);
const LMDB = createRequire(import.meta.url).resolve('lmdb');

/** Many small, distinct Python modules: enough work for a run to be caught in the middle. */
function manyModules(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    let body = `from pkg.m${(i + 1) % count} import helper_${(i + 1) % count}\n\n`;
    for (let j = 0; j < 150; j++) body += `def helper_${i}_${j}(value):\n    return helper_${(i + 1) % count}(value + ${j})\n\n\n`;
    files[`pkg/m${i}.py`] = body;
  }
  return files;
}

/**
 * Records in the store's `records` database, as another process sees them (0 before the first
 * commit). Read in a child process: mapping a store that the writer is still creating can end a
 * reader with SIGBUS, which must not take this test's worker down with it.
 */
function committedRecords(path: string): number {
  if (!existsSync(path)) return 0;
  const reader = `
    const { open } = require(${JSON.stringify(LMDB)});
    const root = open({ path: ${JSON.stringify(path)}, readOnly: true, noSubdir: true, maxDbs: 4 });
    let count = 0;
    try { count = root.openDB({ name: 'records' }).getKeysCount(); } catch {}
    process.stdout.write(String(count));`;
  const result = spawnSync(process.execPath, ['-e', reader], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout) : 0;
}

describe('store recovery', () => {
  test('a corrupt store is recreated and the run completes', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return b()\n', 'b.py': 'def b():\n    return 1\n' });
    await indexJson(root);
    writeFileSync(join(root, STORE), Buffer.alloc(64 * 1024, 0xab));
    const result = await runCli(['index', root, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('recreating it');
    expect(JSON.parse(result.stdout)).toMatchObject({ files: 2, parsed: 2, reused: 0 });
    expect(await indexJson(root)).toMatchObject({ parsed: 0, reused: 2 });
  });

  test('an unusable cache dir falls back to memory with a warning', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return b()\n' });
    const notADirectory = join(root, 'cache-file');
    writeFileSync(notADirectory, 'x');
    const result = await runCli(['tags', root, '--cache-dir', notADirectory]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('keeping tags in memory');
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
  });

  // Node 20's recursive mkdirSync spins forever under /proc, which refuses new entries with ENOENT.
  const haveProc = existsSync('/proc/self');
  if (!haveProc) console.warn('the /proc cache-dir test is skipped: this system has no /proc');
  test.skipIf(!haveProc)('a cache dir that cannot be made (under /proc) falls back to memory too, and the map is made', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return b()\n', 'b.py': 'def b():\n    return 1\n' });
    const result = await runCli(['map', root, '--cache-dir', '/proc/repomap-cannot-be-here', '-t', '100']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('cannot use cache dir /proc/repomap-cannot-be-here');
    expect(result.stdout).toContain('b.py:');
  });

  test('a process killed mid-run (SIGKILL) loses nothing: the next run completes the index', async () => {
    const root = makeRepo(manyModules(300));
    // One file hangs its worker, so the run cannot finish before the kill however fast it is.
    const run = spawn(process.execPath, [CLI, 'index', root, '--jobs', '2'], {
      stdio: 'ignore',
      env: { ...process.env, ...faultEnv('hang', 'pkg/m0.py') },
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => run.on('exit', (_code, signal) => resolve(signal)));
    // Kill once some shards are committed, as a reader of the store sees them.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && committedRecords(join(root, STORE)) < 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const resumed = await indexJson(root);
    expect(resumed.files).toBe(300);
    expect(resumed.parsed + resumed.reused).toBe(300);
    expect(resumed.reused).toBeGreaterThan(0);
    expect(resumed.skipped).toEqual({});

    const fresh = mkdtempSync(join(tmpdir(), 'repomap-fresh-'));
    expect(await cliTags(root)).toEqual(await cliTags(root, ['--cache-dir', fresh]));
  });
});

describe('a run killed as it created the store', () => {
  test('left an empty data file and its creation mark: the next run removes both and makes its own store, without a word', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    pass\n' });
    await indexJson(root);
    const data = join(root, STORE);
    for (const leftover of [data, `${data}-id`, `${data}-lock`]) rmSync(leftover);
    // What a SIGKILL between making the file and noting it leaves: the empty file, and the dead run's mark.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
    const mark = `${data}.${deadPid}.creating`;
    writeFileSync(mark, '');
    writeFileSync(data, '');
    const result = await runCli(['index', root, '--json']);
    expect(result.stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([]);
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: 1 });
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(`${data}-id`)).toBe(true);
    expect(await indexJson(root)).toMatchObject({ parsed: 0, reused: 1 });
  });
});
