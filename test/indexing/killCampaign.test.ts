import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { seededRandom } from '../../dist/bench/seededRandom.js';
import { DEFAULT_EXCLUDED_DIRS } from '../../dist/src/discover/discoverFiles.js';
import type { FileRecord } from '../../dist/src/record/fileRecord.js';
import type { StoredStamp } from '../../dist/src/record/recordCodec.js';
import { openTagStore } from '../../dist/src/store/tagStore.js';
import { CLI, indexJson } from '../support/cli.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const KILLS = 20;
const TREE_FILES = 150;

/** Real code: the repository's own sources and fixtures with a grammar, in path order, outside the folders a walk skips. */
function copyRealCode(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-kills-'));
  const sources: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!DEFAULT_EXCLUDED_DIRS.has(entry.name)) visit(path);
      } else if (/\.(py|ts|tsx|js|rs|go|java)$/.test(entry.name)) sources.push(relative(REPO, path));
    }
  };
  for (const top of ['src', 'fixtures']) visit(join(REPO, top));
  for (const path of sources.sort().slice(0, count)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    copyFileSync(join(REPO, path), join(root, path));
  }
  return root;
}

/** Every stored stamp and decoded record of the store of `root` in `cacheDir`. */
async function storedRecords(root: string, cacheDir: string): Promise<Map<string, { stamp: StoredStamp; record: FileRecord | undefined }>> {
  const store = await openTagStore(root, cacheDir);
  try {
    const records = new Map<string, { stamp: StoredStamp; record: FileRecord | undefined }>();
    for (const [path, stamp] of store.stamps()) records.set(path, { stamp, record: store.get(path) });
    return records;
  } finally {
    await store.close();
  }
}

/** Starts a cold `repomap index` and SIGKILLs it after `delayMs`: null when it was still running then, else how long it ran. */
function killedIndex(root: string, cacheDir: string, delayMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const run = spawn(process.execPath, [CLI, 'index', root, '--cache-dir', cacheDir, '--jobs', '2'], { stdio: 'ignore' });
    const timer = setTimeout(() => run.kill('SIGKILL'), delayMs);
    run.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal === 'SIGKILL' ? null : performance.now() - started);
    });
  });
}

describe('SIGKILL campaign', () => {
  // 42 index runs of the tree: 23 s on a moderately loaded 2-core machine, 105 s on a heavily loaded one.
  test(`${KILLS} runs killed at random moments: each next run leaves the records a clean index makes`, { timeout: 600_000 }, async () => {
    const root = copyRealCode(TREE_FILES);
    const cleanDir = mkdtempSync(join(tmpdir(), 'repomap-clean-'));
    const clean = await indexJson(root, ['--cache-dir', cleanDir, '--jobs', '2']);
    expect(clean).toMatchObject({ files: TREE_FILES, parsed: TREE_FILES });
    const expected = await storedRecords(root, cleanDir);
    // Timed on a second cold run: the first also warmed the disk cache.
    const started = performance.now();
    await indexJson(root, ['--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-cold-')), '--jobs', '2']);
    let coldMs = performance.now() - started;

    const random = seededRandom(10);
    let killedMidRun = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const delayMs = Math.round(random() * coldMs);
      const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-killed-'));
      const ranMs = await killedIndex(root, cacheDir, delayMs);
      // A run that finished first shows the machine faster than when timed (less loaded): later moments fall within its time.
      if (ranMs === null) killedMidRun++;
      else coldMs = ranMs;
      const next = await indexJson(root, ['--cache-dir', cacheDir, '--jobs', '2']);
      expect(next, `after the kill at ${delayMs} ms`).toMatchObject({ files: TREE_FILES, removed: 0, skipped: {} });
      expect(next.parsed + next.reused, `after the kill at ${delayMs} ms`).toBe(TREE_FILES);
      expect(await storedRecords(root, cacheDir), `after the kill at ${delayMs} ms`).toEqual(expected);
    }
    // The moments fall within a cold run: most kills land while it runs.
    expect(killedMidRun).toBeGreaterThan(KILLS / 2);
  });
});
