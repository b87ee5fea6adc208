import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { openTagStore } from '../../dist/src/store/tagStore.js';
import { makeRepo, runCli, runCliWithin } from '../support/cli.js';

/**
 * A walk-mode repository whose `swapped<i>.py` files are renamed over, again and again while runs
 * index it, by a symlink out of the root or by a FIFO: discovery and the worker then see different
 * files under one name. What a run stores must be what it checked, and no run may wait on a FIFO.
 */

const SWAP_LOOP = fileURLToPath(new URL('../support/swapLoop.mjs', import.meta.url));
/** Long enough for either campaign on a loaded machine; the swapper stops by itself after it, and is killed sooner. */
const SWAPPER_SECONDS = 240;
/** Each run's deadline: a run still going after it waits on something it should never have opened. */
const RUN_DEADLINE_MS = 60_000;
const LEAK_RUNS = 30;
const FIFO_RUNS = 30;
/** Files swapped independently: each run has as many chances to meet a swap between discovery and reading. */
const SWAPPED = 4;
const swappedPaths = Array.from({ length: SWAPPED }, (_, i) => `swapped${i}.py`);

const inside = (i: number) => `def swapped_inside_${i}():\n    return helper()\n`;
const OUTSIDE = 'def outside_secret():\n    return leaked_call()\n';
const MAIN = `def main():\n    return ${swappedPaths.map((_, i) => `swapped_inside_${i}()`).join(' + ')}\n`;

const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const swapper of swappers.splice(0)) swapper.kill('SIGKILL');
});

/** The repository, and a folder outside it holding each swapped file's regular text and the renames' staging. */
function swapTree(): { root: string; outside: string } {
  const root = makeRepo({ 'main.py': MAIN, ...Object.fromEntries(swappedPaths.map((path, i) => [path, inside(i)])) });
  const outside = mkdtempSync(join(tmpdir(), 'repomap-outside-'));
  swappedPaths.forEach((path, i) => {
    writeFileSync(join(outside, path), inside(i));
  });
  return { root, outside };
}

function startSwapper(root: string, outside: string, intruder: string): ChildProcess {
  const pairs = swappedPaths.flatMap((path) => [join(root, path), join(outside, path)]);
  const swapper = spawn(process.execPath, [SWAP_LOOP, intruder, outside, String(SWAPPER_SECONDS), ...pairs], { stdio: 'ignore' });
  swappers.push(swapper);
  return swapper;
}

/** Stops the swapper, leaving the regular texts in place. */
async function stopSwapper(swapper: ChildProcess, root: string, outside: string): Promise<void> {
  const exited = new Promise((resolve) => swapper.once('exit', resolve));
  swapper.kill('SIGKILL');
  if (swapper.exitCode === null && swapper.signalCode === null) await exited;
  for (const path of swappedPaths) {
    // Killed between making its staged link and renaming it, the swapper left a symlink there, which a copy would write through.
    rmSync(join(outside, 'staged'), { force: true });
    copyFileSync(join(outside, path), join(outside, 'staged'));
    renameSync(join(outside, 'staged'), join(root, path));
  }
}

/** Every definition and reference name the store of `cacheDir` holds, by path. */
async function storedNames(root: string, cacheDir: string): Promise<Map<string, string[]>> {
  const store = await openTagStore(root, cacheDir);
  try {
    const names = new Map<string, string[]>();
    for (const path of store.stamps().keys()) {
      const record = store.get(path);
      if (record) names.set(path, [...record.definitions.map((definition) => definition.name), ...record.references.names]);
    }
    return names;
  } finally {
    await store.close();
  }
}

/** The map of `root` from the store in `cacheDir`, after stopping the swapper, against the map of a clean index. */
async function expectCleanMap(root: string, cacheDir: string): Promise<void> {
  const healed = await runCli(['map', root, '--cache-dir', cacheDir]);
  const clean = await runCli(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-clean-'))]);
  expect(clean.code).toBe(0);
  expect(clean.stdout).toContain('swapped_inside_0');
  expect(healed).toMatchObject({ code: 0, stdout: clean.stdout });
}

function mkfifo(path: string): boolean {
  return spawnSync('mkfifo', [path]).status === 0;
}

describe('a source file swapped during runs', () => {
  test(`for a symlink out of the root: none of ${LEAK_RUNS} runs stores the outside file's tags`, { timeout: 600_000 }, async () => {
    const { root, outside } = swapTree();
    const secret = join(outside, 'secret.py');
    writeFileSync(secret, OUTSIDE);
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-swap-'));
    const swapper = startSwapper(root, outside, secret);
    const leaks: string[] = [];
    for (let run = 0; run < LEAK_RUNS; run++) {
      // Each swap makes a new file, so every run parses a swapped file again, or drops it.
      const result = await runCliWithin(['index', root, '--cache-dir', cacheDir, '--jobs', '1', '--json'], RUN_DEADLINE_MS);
      expect(result, `run ${run}`).toMatchObject({ code: 0, hung: false });
      for (const [path, names] of await storedNames(root, cacheDir)) {
        if (names.includes('outside_secret') || names.includes('leaked_call')) leaks.push(`run ${run}: ${path}`);
      }
    }
    expect(swapper.exitCode, 'the swapper ran through the campaign').toBeNull();
    expect(leaks).toEqual([]);
    await stopSwapper(swapper, root, outside);
    await expectCleanMap(root, cacheDir);
  });

  test(`for a FIFO: each of ${FIFO_RUNS} runs finishes with at most one line on stderr`, { timeout: 600_000 }, async (context) => {
    const { root, outside } = swapTree();
    const fifo = join(outside, 'fifo');
    if (!mkfifo(fifo)) context.skip('mkfifo(1) is not available');
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-swap-'));
    const swapper = startSwapper(root, outside, fifo);
    for (let run = 0; run < FIFO_RUNS; run++) {
      const result = await runCliWithin(['index', root, '--cache-dir', cacheDir, '--jobs', '1'], RUN_DEADLINE_MS);
      expect(result, `run ${run}`).toMatchObject({ code: 0, hung: false, stdout: '' });
      expect(result.stderr.trimEnd().split('\n').length, `run ${run}: ${result.stderr}`).toBeLessThanOrEqual(1);
    }
    expect(swapper.exitCode, 'the swapper ran through the campaign').toBeNull();
    await stopSwapper(swapper, root, outside);
    await expectCleanMap(root, cacheDir);
  });
});
