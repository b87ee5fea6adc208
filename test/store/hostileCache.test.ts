import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { buildMap, openRepoMap } from '../../dist/src/index.js';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { type CliResult, expectOneLineError, indexJson, makeRepo, runCli } from '../support/cli.js';
import { codeSlice } from '../support/codeSlice.js';
import { readStoreEntries, writeStoreEntries } from '../support/storeEntries.js';
import { treeDigest } from '../support/treeDigest.js';

/**
 * A repository is untrusted input: what it commits under `.repomap` (symlinks, a store, a whole
 * folder) and where `--cache-dir` points must never make repomap write, delete or trust a file
 * that is not its own. Each hostile case digests the whole sandbox (the repository and the files
 * outside it that links point to) before and after the built CLI runs.
 */
const BUDGET = 256;
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

/** One warning line saying the run kept its tags in memory, and nothing else on stderr. */
const IN_MEMORY = /^repomap: warning: [^\n]*keeping tags in memory\n$/;

/** A temp folder holding `repo` (real code) and `outside` (the user's files a hostile repository points at). */
function sandbox(folders: readonly string[] = ['rank']): { parent: string; root: string; outside: string } {
  const parent = mkdtempSync(join(tmpdir(), 'repomap-hostile-'));
  const root = codeSlice(folders, parent);
  const outside = join(parent, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'notes.txt'), "the user's notes\n");
  return { parent, root, outside };
}

async function mapWithinBudget(root: string, args: string[] = []): Promise<CliResult> {
  const result = await runCli(['map', root, '-t', String(BUDGET), ...args]);
  expect(result.signal).toBeNull();
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('src/');
  expect(encoding.encode(result.stdout).length).toBeLessThanOrEqual(BUDGET);
  return result;
}

describe('a hostile repository', () => {
  test('a committed lock file linking outside the repository: nothing is written through it, the map is made in memory', async () => {
    const { parent, root, outside } = sandbox();
    mkdirSync(join(root, '.repomap'));
    symlinkSync(join(outside, 'notes.txt'), join(root, '.repomap', `${STORE_FILE}-lock`));
    const before = treeDigest(parent);
    const result = await mapWithinBudget(root);
    expect(treeDigest(parent)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });

  test('a committed .repomap linking to a folder elsewhere: not followed, nothing there written or deleted', async () => {
    const { parent, root, outside } = sandbox();
    writeFileSync(join(outside, 'tags-v1.mdb'), 'not a store\n');
    symlinkSync(outside, join(root, '.repomap'));
    const before = treeDigest(parent);
    const result = await mapWithinBudget(root);
    expect(treeDigest(parent)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });

  test('a committed parse journal linking outside: not read, not deleted, never written through', async () => {
    const { parent, root, outside } = sandbox();
    mkdirSync(join(root, '.repomap'));
    // A journal of a dead run (no process has this id) is read, then deleted, by the next run.
    symlinkSync(join(outside, 'notes.txt'), join(root, '.repomap', 'parsing-999999-1'));
    const before = treeDigest(parent);
    const result = await mapWithinBudget(root);
    expect(treeDigest(parent)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });

  test('a committed store is never used: with its token counts zeroed, the map still keeps its budget', async () => {
    const donor = codeSlice(['rank', 'map']);
    await mapWithinBudget(donor);
    const { parent, root } = sandbox(['rank', 'map']);
    // What a checkout of a committed store makes: the same bytes in new files.
    cpSync(join(donor, '.repomap'), join(root, '.repomap'), { recursive: true });
    const store = join(root, '.repomap', STORE_FILE);
    const counts = readStoreEntries(store, 'tokens');
    expect(Object.keys(counts).length).toBeGreaterThan(10);
    writeStoreEntries(store, 'tokens', Object.fromEntries(Object.keys(counts).map((line) => [line, Buffer.alloc(4).toString('base64')])));
    const before = treeDigest(parent);
    const result = await mapWithinBudget(root);
    expect(treeDigest(parent)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });

  test('a copy of our own store (a new file with the same bytes) is not trusted, and left alone', async () => {
    const root = codeSlice(['rank']);
    await mapWithinBudget(root);
    const store = join(root, '.repomap', STORE_FILE);
    cpSync(store, `${store}.copy`);
    renameSync(`${store}.copy`, store);
    const before = treeDigest(root);
    const result = await mapWithinBudget(root);
    expect(treeDigest(root)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });
});

describe('where the cache folder may be', () => {
  test('the repository root, an ancestor of it, or a folder holding other files: refused with one line, nothing written', async () => {
    const { parent, root } = sandbox(['pack']);
    const before = treeDigest(parent);
    for (const cacheDir of [root, '.', parent, join(root, 'src', 'pack')]) {
      await expectOneLineError(
        ['index', root, '--cache-dir', cacheDir],
        1,
        /^repomap: cache dir .* (is the repository root|holds the repository|holds files repomap did not make)/,
        {
          cwd: root,
        },
      );
    }
    expect(treeDigest(parent)).toEqual(before);
  });

  test('the folder it makes is private (0700, its files 0600) with a .gitignore; a folder it did not make gets none', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return 1\n' });
    await indexJson(root);
    expect(statSync(join(root, '.repomap')).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(join(root, '.repomap'))) expect(statSync(join(root, '.repomap', name)).mode & 0o077).toBe(0);
    expect(existsSync(join(root, '.repomap', '.gitignore'))).toBe(true);

    const existing = mkdtempSync(join(tmpdir(), 'repomap-existing-'));
    expect(await indexJson(root, ['--cache-dir', existing])).toMatchObject({ parsed: 1 });
    expect(readdirSync(existing)).not.toContain('.gitignore');
    expect(await indexJson(root, ['--cache-dir', existing])).toMatchObject({ parsed: 0, reused: 1 });
  });

  test('a folder of ours that others may write to (umask 002) loses their write permission and is used', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return 1\n' });
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-shared-'));
    chmodSync(cacheDir, 0o775);
    expect(await indexJson(root, ['--cache-dir', cacheDir])).toMatchObject({ parsed: 1 });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o755);
    expect(await indexJson(root, ['--cache-dir', cacheDir])).toMatchObject({ parsed: 0, reused: 1 });
  });
});

/** Runs the built CLI as the unprivileged user `nobody` (the tests run only as root). */
function runAsNobody(args: string[]): Promise<CliResult> {
  return runCli(args, { uid: 65534, gid: 65534 });
}

const NOBODY = 65534;
const asRoot = process.geteuid?.() === 0;
if (!asRoot) console.warn('the other-user cache tests are skipped: they need root');

describe.skipIf(!asRoot)('a cache another user can reach', () => {
  /** A code slice mapped once by root, in a sandbox nobody can enter. */
  async function mappedSandbox(): Promise<{ parent: string; root: string; cache: string }> {
    const { parent, root } = sandbox();
    await mapWithinBudget(root);
    for (let dir = root; dir !== dirname(parent); dir = dirname(dir)) chmodSync(dir, 0o755);
    return { parent, root, cache: join(root, '.repomap') };
  }

  test("another user's store in a folder everyone may write: not used, not deleted", async () => {
    const { parent, root, cache } = await mappedSandbox();
    chmodSync(cache, 0o777);
    const before = treeDigest(parent);
    const result = await runAsNobody(['map', root, '-t', String(BUDGET)]);
    expect(result.code).toBe(0);
    expect(treeDigest(parent)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });

  test('a store owned by another user is not used, even as root', async () => {
    const { parent, root, cache } = await mappedSandbox();
    for (const name of readdirSync(cache)) chownSync(join(cache, name), NOBODY, NOBODY);
    const before = treeDigest(parent);
    const result = await mapWithinBudget(root);
    expect(treeDigest(parent)).toEqual(before);
    expect(result.stderr).toMatch(IN_MEMORY);
  });

  test('our own store whose lock we may not write: a permission error keeps tags in memory and deletes nothing', async () => {
    const { parent, root, cache } = await mappedSandbox();
    chownSync(cache, NOBODY, NOBODY);
    for (const name of readdirSync(cache)) chownSync(join(cache, name), NOBODY, NOBODY);
    chmodSync(join(cache, `${STORE_FILE}-lock`), 0o400);
    // The store's note of when it was last found sound is ours to rewrite; the store and its lock are not to be touched.
    const notes = (path: string) => path.endsWith('-id');
    const before = treeDigest(parent, notes);
    const result = await runAsNobody(['map', root, '-t', String(BUDGET)]);
    expect(treeDigest(parent, notes)).toEqual(before);
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stderr).toMatch(IN_MEMORY);
  });
});

describe('the library', () => {
  test('refuses the cache dirs the CLI refuses, with the same exit code', async () => {
    const { root } = sandbox(['pack']);
    for (const cacheDir of [root, dirname(root)]) {
      await expect(buildMap({ root, cacheDir, maxTokens: BUDGET })).rejects.toMatchObject({ name: 'CacheDirError', exitCode: 1 });
      await expect(openRepoMap({ root, cacheDir })).rejects.toMatchObject({ name: 'CacheDirError', exitCode: 1 });
    }
  });

  test('a committed lock link: one warning, nothing written through it, the map the CLI makes', async () => {
    const { parent, root, outside } = sandbox();
    mkdirSync(join(root, '.repomap'));
    symlinkSync(join(outside, 'notes.txt'), join(root, '.repomap', `${STORE_FILE}-lock`));
    const before = treeDigest(parent);
    const warnings: string[] = [];
    const repo = await openRepoMap({ root, onWarning: (message) => warnings.push(message) });
    const map = await repo.map({ maxTokens: BUDGET });
    await repo.close();
    expect(treeDigest(parent)).toEqual(before);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/keeping tags in memory$/);
    const cli = await mapWithinBudget(root);
    expect(map.text).toBe(cli.stdout);
  });
});
