import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { lockContent, lockIndexer } from '../../dist/src/indexing/indexerLock.js';
import { openTagStore } from '../../dist/src/store/tagStore.js';
import { CLI, type IndexJson, indexJson, makeRepo, runCli } from '../support/cli.js';

/** Small, distinct Python modules: enough work for two runs started together to overlap. */
function modules(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    let body = '';
    for (let j = 0; j < 40; j++) body += `def helper_${i}_${j}(value):\n    return helper_${(i + 1) % count}_${j}(value + ${j})\n\n\n`;
    files[`pkg/m${i}.py`] = body;
  }
  return files;
}

describe('one indexer per store at a time', () => {
  test('two concurrent index runs on a fresh tree parse each file once between them', async () => {
    const count = 200;
    const root = makeRepo(modules(count));
    const runs = await Promise.all([0, 1].map(() => runCli(['index', root, '--json'])));
    const summaries = runs.map((run) => {
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as IndexJson;
    });
    expect(summaries.map((summary) => summary.files)).toEqual([count, count]);
    expect(summaries[0]!.parsed + summaries[1]!.parsed, runs.map((run) => run.stderr).join('')).toBe(count);
  });

  // A run whose lock came at once has had no timer turn since it read the stamps: LMDB still
  // showed it the store as it was, and it parsed again all that the run before it had written.
  test('a run that takes the lock at once sees what another run committed since its stamps were read', async () => {
    const root = makeRepo(modules(5));
    const store = await openTagStore(root, join(root, '.repomap'));
    try {
      expect(store.generation()).toBe(0);
      expect(spawnSync(process.execPath, [CLI, 'index', root]).status).toBe(0);
      expect(store.generation()).toBe(0);
      store.catchUp();
      expect(store.generation()).toBeGreaterThan(0);
      expect(store.stamps().keys()).toHaveLength(5);
    } finally {
      await store.close();
    }
  });
});

const BOOT_ID = '/proc/sys/kernel/random/boot_id';

describe('the indexer lock', () => {
  /** A tree indexed once (so its cache folder exists), then grown by `count` files to parse. */
  async function grownTree(count: number): Promise<{ root: string; lock: string }> {
    const root = makeRepo({ 'seed.py': 'def seed():\n    pass\n' });
    await indexJson(root);
    for (const [path, text] of Object.entries(modules(count))) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return { root, lock: join(root, '.repomap', 'indexing.lock') };
  }
  const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('repomap: warning: '));
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

  /**
   * Makes this process the live holder of `lock`, touching it as a holder's heartbeat does: a run
   * slow to start on a loaded machine must not find it stale. Returns what stops the touching.
   */
  function holdLock(lock: string): () => void {
    writeFileSync(lock, lockContent(process.pid));
    const heartbeat = setInterval(() => {
      const now = new Date();
      utimesSync(lock, now, now);
    }, 1000);
    return () => clearInterval(heartbeat);
  }

  test('a run waits for the live holder, says so once, then indexes', async () => {
    const { root, lock } = await grownTree(20);
    const stopHolding = holdLock(lock);
    // The holder finishes once the run says it waits.
    const run = spawn(process.execPath, [CLI, 'index', root, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    run.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    run.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('waiting for it') && existsSync(lock)) {
        stopHolding();
        rmSync(lock);
      }
    });
    try {
      expect(await new Promise((resolve) => run.on('close', resolve))).toBe(0);
    } finally {
      stopHolding();
    }
    expect(warnings(stderr)).toEqual([`repomap: warning: repomap (pid ${process.pid}) is indexing ${join(root, '.repomap')}: waiting for it (up to 60 s)`]);
    expect(JSON.parse(stdout)).toMatchObject({ parsed: 20, reused: 1 });
    expect(existsSync(lock)).toBe(false);
  });

  test('a lock whose holder is dead is taken over at once', async () => {
    const { root, lock } = await grownTree(5);
    writeFileSync(lock, lockContent(deadPid()));
    const result = await runCli(['index', root, '--json']);
    expect(warnings(result.stderr)).toEqual([]);
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: 5 });
    expect(existsSync(lock)).toBe(false);
  });

  test('the wait is bounded: after --index-wait-ms the run indexes anyway, and leaves the lock to its holder', async () => {
    const { root, lock } = await grownTree(5);
    const stopHolding = holdLock(lock);
    const result = await runCli(['index', root, '--json', '--index-wait-ms', '300']).finally(stopHolding);
    const cacheDir = join(root, '.repomap');
    expect(warnings(result.stderr)).toEqual([
      `repomap: warning: repomap (pid ${process.pid}) is indexing ${cacheDir}: waiting for it (up to 0.3 s)`,
      `repomap: warning: repomap (pid ${process.pid}) is still indexing ${cacheDir} after 0.3 s; indexing anyway`,
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: 5 });
    expect(readFileSync(lock, 'utf8')).toBe(lockContent(process.pid));
  });

  test('a symlink in place of the lock is not followed: the folder holding it is not used, the run indexes in memory', async () => {
    const { root, lock } = await grownTree(5);
    const outside = join(mkdtempSync(join(tmpdir(), 'repomap-outside-')), 'victim.txt');
    writeFileSync(outside, 'keep me\n');
    symlinkSync(outside, lock);
    const result = await runCli(['index', root, '--json']);
    expect(warnings(result.stderr)).toEqual([
      expect.stringMatching(/^repomap: warning: cache dir .* holds indexing\.lock, which is not a plain file of this user's; keeping tags in memory$/),
    ]);
    // In memory, the records of the earlier run are out of reach: every file is parsed.
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: 6 });
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n');
    expect(lstatSync(lock).isSymbolicLink()).toBe(true);
  });

  test.skipIf(!existsSync(BOOT_ID))(
    `a lock not made since this machine started (committed, or from before a reboot) never makes a run wait (needs ${BOOT_ID})`,
    async () => {
      const { root, lock } = await grownTree(5);
      // pid 1 is alive everywhere; the host is ours; only the boot is not.
      for (const content of [
        `1 ${hostname()}\n`,
        `1 ${hostname()} 00000000-0000-0000-0000-000000000000\n`,
        `1 another-host 00000000-0000-0000-0000-000000000000\n`,
        '',
        'not a lock',
      ]) {
        writeFileSync(lock, content);
        // A run writes its lock as it makes it: one still unwritten a moment later (here, 2 s) is no run's.
        if (!content.endsWith('\n')) utimesSync(lock, new Date(Date.now() - 2000), new Date(Date.now() - 2000));
        const result = await runCli(['index', root, '--json', '--index-wait-ms', '20000']);
        expect(warnings(result.stderr)).toEqual([]);
        expect(result.code).toBe(0);
        expect(existsSync(lock)).toBe(false);
        writeFileSync(join(root, 'seed.py'), `def seed():\n    return ${JSON.stringify(content)}\n`);
      }
    },
  );

  test('a run with nothing to write takes no lock and never waits', async () => {
    const { root, lock } = await grownTree(5);
    await indexJson(root);
    writeFileSync(lock, lockContent(process.pid));
    const result = await runCli(['index', root, '--json']);
    expect(warnings(result.stderr)).toEqual([]);
    expect(JSON.parse(result.stdout)).toMatchObject({ parsed: 0, reused: 6 });
  });
});

describe('lockIndexer', () => {
  test('makes a file of mode 0600 naming the holder, removed on release', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repomap-lock-'));
    const lock = await lockIndexer(dir, 0, (message) => expect.fail(message));
    const path = join(dir, 'indexing.lock');
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(lockContent(process.pid));
    lock!.release();
    expect(existsSync(path)).toBe(false);
  });

  test("a second lock in the same process waits for the first; a lock naming this process that it does not hold is stale (a reused pid's)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repomap-lock-'));
    const first = await lockIndexer(dir, 0, (message) => expect.fail(message));
    const messages: string[] = [];
    expect(await lockIndexer(dir, 100, (message) => messages.push(message))).toBeNull();
    expect(messages).toHaveLength(2);
    first!.release();
    writeFileSync(join(dir, 'indexing.lock'), lockContent(process.pid));
    const taken = await lockIndexer(dir, 0, (message) => expect.fail(message));
    expect(taken).not.toBeNull();
    taken!.release();
  });
});
