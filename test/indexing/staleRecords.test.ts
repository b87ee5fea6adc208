import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LIMITS } from '../../dist/src/defaults.js';
import { discoverFiles } from '../../dist/src/discover/discoverFiles.js';
import { planIndex } from '../../dist/src/indexing/indexPlan.js';
import { openIndex } from '../../dist/src/indexing/indexRepository.js';
import { encodeStamps, type StoredStamp } from '../../dist/src/record/recordCodec.js';
import { StampTable } from '../../dist/src/record/stampTable.js';
import { cliTags, faultEnv, indexedRepo, indexJson, makeRepo, runCli, stagesOf } from '../support/cli.js';
import { storedStamp } from '../support/storedStamp.js';

const GOOD = 'def ok():\n    return helper()\n';

/** About 2 MB of Python: 2 s to parse on a 2-core machine, 40 times a 50 ms limit, and past the default 10 s when the machine is loaded. */
function bigPython(): string {
  let text = '';
  for (let i = 0; text.length < 2_000_000; i++) text += `def f${i}(a, b):\n    return g(a + b * ${i})\n`;
  return text;
}

describe('a record is stale when its file changed, even with its mtime and size restored', () => {
  test('a same-size edit whose mtime was put back (cp -p, then touch -r) is parsed again', async () => {
    const root = makeRepo({ 'a.py': 'def alpha():\n    return 1\n', 'b.py': GOOD });
    await indexJson(root);
    const reference = join(mkdtempSync(join(tmpdir(), 'repomap-reference-')), 'a.py');
    execFileSync('cp', ['-p', join(root, 'a.py'), reference]);
    writeFileSync(join(root, 'a.py'), 'def omega():\n    return 2\n');
    execFileSync('touch', ['-r', reference, join(root, 'a.py')]);
    expect(await indexJson(root)).toMatchObject({ parsed: 1, reused: 1 });
    expect(await cliTags(root)).toContain('a.py:1 def function omega');
  });
});

describe('a record holds for the same bytes under a new stamp', () => {
  test("files touched or copied with new stamps are read, not parsed; a same-size edit is parsed; the tags and map are a fresh index's", async () => {
    const root = makeRepo({ 'a.py': 'def alpha():\n    return 1\n', 'b.py': GOOD, 'c.py': 'def gamma():\n    return 3\n' });
    await indexJson(root);
    const later = new Date(Date.now() + 60_000);
    for (const name of ['a.py', 'b.py']) utimesSync(join(root, name), later, later);
    // The same size, other bytes: a content id tells it apart where the size cannot.
    writeFileSync(join(root, 'c.py'), 'def delta():\n    return 4\n');
    expect(await indexJson(root)).toMatchObject({ parsed: 1, reused: 2 });
    // Restamped, the records stand as they are: the next run reads nothing.
    expect(await indexJson(root)).toMatchObject({ parsed: 0, reused: 3 });
    const fresh = mkdtempSync(join(tmpdir(), 'repomap-fresh-cache-'));
    expect(await cliTags(root)).toEqual(await cliTags(root, ['--cache-dir', fresh]));
    expect((await runCli(['map', root])).stdout).toBe((await runCli(['map', root, '--cache-dir', fresh])).stdout);
  });

  test('a map after every file was touched reads them, restamps their records (a file no grammar reads too) and builds no table: the same bytes derive the same tables', async () => {
    // notes.txt has no grammar: its record never depended on its bytes, and is restamped as well.
    const root = makeRepo({ 'a.py': 'def alpha():\n    return beta()\n', 'b.py': 'def beta():\n    return 1\n', 'notes.txt': 'alpha, beta\n' });
    await indexJson(root);
    const before = await runCli(['map', root]);
    const later = new Date(Date.now() + 60_000);
    for (const name of ['a.py', 'b.py', 'notes.txt']) utimesSync(join(root, name), later, later);
    const after = await runCli(['map', root, '--verbose']);
    expect(stagesOf(after.stderr)).not.toEqual(expect.arrayContaining(['parse']));
    expect(stagesOf(after.stderr)).not.toEqual(expect.arrayContaining(['build tables']));
    expect(after.stdout).toBe(before.stdout);
    expect(await indexJson(root)).toMatchObject({ parsed: 0, reused: 3 });
  });

  test('records restamped are committed in batches of about LIMITS.commitBatchBytes (one record per batch when it is a byte), so a touch of a whole tree is not one transaction', async () => {
    const root = makeRepo({ 'a.py': 'def alpha():\n    return beta()\n', 'b.py': 'def beta():\n    return 1\n', 'c.py': GOOD });
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-batches-'));
    const generationAfter = async (touchedAt?: number) => {
      if (touchedAt) for (const name of ['a.py', 'b.py', 'c.py']) utimesSync(join(root, name), touchedAt / 1000, touchedAt / 1000);
      const { store, summary } = await openIndex({ root, cacheDir });
      expect(summary).toMatchObject({ parsed: touchedAt ? 0 : 3 });
      const generation = store.generation();
      await store.close();
      return generation;
    };
    let touchedAt = Date.now();
    const generationAfterTouch = () => {
      touchedAt += 60_000;
      return generationAfter(touchedAt);
    };
    const start = await generationAfter();
    const whole = await generationAfterTouch();
    expect(whole - start).toBe(1);
    const limits = LIMITS as { commitBatchBytes: number };
    const bound = limits.commitBatchBytes;
    limits.commitBatchBytes = 1;
    try {
      expect((await generationAfterTouch()) - whole).toBe(3);
    } finally {
      limits.commitBatchBytes = bound;
    }
  });

  test('files read and found no text (empty, binary, not UTF-8) are restamped when touched, and parsed again when their bytes change', async () => {
    const root = makeRepo({ '__init__.py': '', 'blob.py': Buffer.from([0x64, 0, 0x65]), 'latin.py': Buffer.from('x = "caf\xe9"\n', 'latin1'), 'a.py': GOOD });
    expect(await indexJson(root)).toMatchObject({ parsed: 1, skipped: { empty: 1, binary: 1, 'invalid-utf8': 1 } });
    // `parsed` counts files that got tags: whether a worker read any, the run's stages say.
    const run = async () => {
      const { stdout, stderr } = await runCli(['index', root, '--json', '--verbose']);
      return { ...(JSON.parse(stdout) as { reused: number }), stages: stagesOf(stderr) };
    };
    const later = new Date(Date.now() + 60_000);
    for (const name of ['__init__.py', 'blob.py', 'latin.py']) utimesSync(join(root, name), later, later);
    const touched = await run();
    expect(touched.reused).toBe(4);
    expect(touched.stages).not.toContain('parse');
    writeFileSync(join(root, 'blob.py'), Buffer.from([0x66, 0, 0x67]));
    const edited = await run();
    expect(edited.reused).toBe(3);
    expect(edited.stages).toContain('parse');
  });

  test('a manifest import resolution reads (go.mod) builds the tables again when its bytes change, not when it is only touched', async () => {
    const goFile = (module: string) => `package main\n\nimport "${module}/store"\n\nfunc main() { store.Open() }\n`;
    const root = makeRepo({
      'go.mod': 'module example.com/shop\n',
      'main.go': goFile('example.com/shop'),
      'store/store.go': 'package store\n\nfunc Open() {}\n',
    });
    await indexJson(root);
    const deps = async () => (await runCli(['deps', 'main.go', '--root', root, '--verbose'])).stderr;
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'go.mod'), later, later);
    expect(stagesOf(await deps())).not.toEqual(expect.arrayContaining(['build tables', 'patch tables', 'resolve imports']));
    // A new module path, the import kept: main.go's import names no file of the repository now.
    writeFileSync(join(root, 'go.mod'), 'module example.org/shop\n');
    const edited = await deps();
    // The tables patched, the imports resolved again: no file's imports changed, the manifest did.
    expect(stagesOf(edited)).toEqual(expect.arrayContaining(['patch tables', 'resolve imports']));
    expect(edited).toContain('main.go imports no file of the repository');
  });
});

// Root reads any file: as root, the CLI runs as nobody so that a mode of 000 locks it out.
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe('the plan of a run', () => {
  const root = makeRepo({ 'a.py': GOOD });
  const [file] = discoverFiles({ root }).files;
  const limits = { root, maxFileBytes: 1 << 20, fileTimeoutMs: 10_000 };
  const stored = (changes: Partial<StoredStamp>): StampTable =>
    StampTable.of([['a.py', { ...file!, definitions: 1, references: 1, skipped: null, fileTimeoutMs: 10_000, retries: 0, ...changes }]]);
  const parses = (stamps: StampTable) => planIndex([file!], stamps, limits).toParse.map((shardFile) => shardFile.path);

  test('keeps a record whose stamp matches, and parses the file when its inode or ctime alone differs', () => {
    expect(parses(stored({}))).toEqual([]);
    expect(parses(stored({ ino: file!.ino + 1 }))).toEqual(['a.py']);
    expect(parses(stored({ ctimeMs: file!.ctimeMs - 1 }))).toEqual(['a.py']);
  });

  test('retries an unreadable file whose stamp matches as soon as it can be opened', () => {
    expect(parses(stored({ skipped: 'unreadable' }))).toEqual(['a.py']);
  });

  test('retries a timed-out file once under the same limit (a loaded machine misses a deadline once), then under a higher one only', () => {
    expect(parses(stored({ skipped: 'timeout', retries: 0 }))).toEqual(['a.py']);
    expect(parses(stored({ skipped: 'timeout', retries: 1 }))).toEqual([]);
    expect(parses(stored({ skipped: 'timeout', retries: 1, fileTimeoutMs: 5_000 }))).toEqual(['a.py']);
  });
});

describe('records of files that could not be parsed are retried when that may now succeed', () => {
  test('a file skipped as unreadable is parsed once it can be read', async () => {
    const root = makeRepo({ 'a.py': GOOD, 'locked.py': 'def locked():\n    return 1\n' });
    if (asUser.uid !== undefined) execFileSync('chown', ['-R', `${asUser.uid}:${asUser.gid}`, root]);
    chmodSync(join(root, 'locked.py'), 0o000);
    const index = async () => JSON.parse((await runCli(['index', root, '--json'], asUser)).stdout);
    expect(await index()).toMatchObject({ parsed: 1, skipped: { unreadable: 1 } });
    // Still locked: one open says so, and no worker is started for it.
    expect(await index()).toMatchObject({ parsed: 0, reused: 2, skipped: { unreadable: 1 } });
    chmodSync(join(root, 'locked.py'), 0o644);
    expect(await index()).toMatchObject({ parsed: 1, reused: 1, skipped: {} });
  });

  test('a timed-out file is tried once more under the same limit, then parsed again only when the limit grows', async () => {
    const root = await indexedRepo({ 'a.py': GOOD });
    writeFileSync(join(root, 'huge.py'), bigPython());
    const limits = ['--max-file-bytes', String(8 << 20)];
    expect(await indexJson(root, [...limits, '--file-timeout-ms', '50'])).toMatchObject({ parsed: 0, reused: 1, skipped: { timeout: 1 } });
    expect(await indexJson(root, [...limits, '--file-timeout-ms', '50'])).toMatchObject({ parsed: 0, reused: 1, skipped: { timeout: 1 } });
    expect(await indexJson(root, [...limits, '--file-timeout-ms', '50'])).toMatchObject({ parsed: 0, reused: 2, skipped: { timeout: 1 } });
    expect(await indexJson(root, [...limits, '--file-timeout-ms', String(10 * 60_000)])).toMatchObject({ parsed: 1, reused: 1, skippedFiles: [] });
  });

  test("a file that hung under a small --file-timeout-ms is parsed again by a default run: its map is a clean index's", async () => {
    const root = makeRepo({ 'a.py': GOOD, 'b.py': 'def helper():\n    return 1\n' });
    const hung = await indexJson(root, ['--jobs', '1', '--file-timeout-ms', '50'], faultEnv('hang', 'b.py'));
    expect(hung).toMatchObject({ parsed: 1, skipped: { timeout: 1 } });
    expect(await indexJson(root)).toMatchObject({ parsed: 1, reused: 1, skipped: {} });
    const map = await runCli(['map', root, '--no-git-signals']);
    const clean = await runCli(['map', root, '--no-git-signals', '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-clean-'))]);
    expect(map).toMatchObject({ code: 0, stderr: '' });
    expect(map.stdout).toBe(clean.stdout);
    expect(map.stdout).toContain('def helper():');
  });

  test('a worker error is retried on the next run', async () => {
    const root = makeRepo({ 'a.py': GOOD, 'b.py': 'def bad():\n    pass\n' });
    expect(await indexJson(root, ['--jobs', '1'], faultEnv('throw', 'b.py'))).toMatchObject({ skipped: { 'worker-error': 1 } });
    expect(await indexJson(root)).toMatchObject({ parsed: 1, reused: 1, skipped: {} });
  });

  test('a worker error that comes back on the retry is kept until the file changes', async () => {
    const root = makeRepo({ 'a.py': GOOD, 'b.py': 'def bad():\n    pass\n' });
    const fault = faultEnv('throw', 'b.py');
    expect(await indexJson(root, [], fault)).toMatchObject({ reused: 0, skipped: { 'worker-error': 1 } });
    expect(await indexJson(root, [], fault)).toMatchObject({ reused: 1, skipped: { 'worker-error': 1 } });
    expect(await indexJson(root, [], fault)).toMatchObject({ reused: 2, skipped: { 'worker-error': 1 } });
  });

  test('a parsed file over a lowered --max-file-bytes becomes too-large, and is parsed again when the limit rises', async () => {
    const root = makeRepo({ 'large.py': `X = "${'x'.repeat(5000)}"\n` });
    expect(await indexJson(root)).toMatchObject({ parsed: 1, defs: 1 });
    expect(await indexJson(root, ['--max-file-bytes', '4096'])).toMatchObject({ parsed: 0, reused: 0, skipped: { 'too-large': 1 }, defs: 0 });
    expect(await indexJson(root)).toMatchObject({ parsed: 1, skipped: {}, defs: 1 });
  });
});

describe('every record’s stamp in one value (what a run reads instead of every record)', () => {
  test('comes back whole, whatever the paths, skip reasons and retries', () => {
    const stamps = new Map([
      ['a.py', storedStamp(1)],
      ['dir/ünïcode name.rs', storedStamp(2, { skipped: 'timeout', retries: 3, fileTimeoutMs: 50 })],
      ['x\ny.go', storedStamp(3, { skipped: 'quarantined', retries: 255 })],
      ['empty.js', storedStamp(4, { skipped: 'empty', definitions: 0, references: 0 })],
    ]);
    expect(new Map(StampTable.decode(encodeStamps(stamps))!)).toEqual(stamps);
    expect(StampTable.decode(encodeStamps(new Map()))!.keys()).toEqual([]);
  });

  test('bytes it did not write decode to null', () => {
    const bytes = encodeStamps(
      new Map([['a.py', { mtimeMs: 1, size: 2, ctimeMs: 3, ino: 4, definitions: 5, references: 6, skipped: null, fileTimeoutMs: 7, retries: 0 }]]),
    );
    expect(StampTable.decode(bytes.subarray(0, 60))).toBeNull();
    expect(StampTable.decode(new Uint8Array(3))).toBeNull();
    const twoPaths = Uint8Array.from([...bytes, 0, 98]);
    expect(StampTable.decode(twoPaths)).toBeNull();
  });
});
