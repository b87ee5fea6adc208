import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { readArtifact, writeArtifact } from '../../dist/src/artifact/artifactFile.js';
import { type ArtifactFrame, HEADER_BYTES } from '../../dist/src/artifact/artifactFormat.js';
import { openStore } from '../../dist/src/indexing/indexRepository.js';
import { cliTags, expectOneLineError, runCli, stagesOf, WARM_MAP_STAGES } from '../support/cli.js';

/** An index moves with its tree: exported once, imported where the tree was copied or cloned, the next map parses nothing. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

const scratch = (name: string) => mkdtempSync(join(tmpdir(), `repomap-${name}-`));

/** A copy of the fixture outside any git work tree: each copy's files have stamps of their own. */
function polyglotCopy(): string {
  const root = scratch('artifact-tree');
  cpSync(POLYGLOT, root, { recursive: true });
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
}

async function exported(root: string): Promise<string> {
  const artifact = join(scratch('artifact'), 'index.rmi');
  const result = await runCli(['export', artifact, root, '--json']);
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ artifact, bytes: statSync(artifact).size });
  return artifact;
}

async function imported(artifact: string, root: string): Promise<Record<string, unknown>> {
  const result = await runCli(['import', artifact, root, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** The map of `root` from a store of its own made from nothing. */
async function freshMap(root: string): Promise<string> {
  const result = await runCli(['map', root, '--cache-dir', scratch('fresh-cache')]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('an imported artifact makes the next map warm, and the map a fresh index makes', () => {
  test('a copy of the tree with new mtimes: every record holds by content, the next map parses nothing and builds no table', async () => {
    const source = polyglotCopy();
    const artifact = await exported(source);
    const copy = polyglotCopy();
    const later = new Date(Date.now() + 3_600_000);
    for (const path of execFileSync('find', [copy, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n')) utimesSync(path, later, later);
    const summary = await imported(artifact, copy);
    expect(summary).toMatchObject({ imported: summary.records, changed: 0, absent: 0, missing: 0, derived: true });

    const first = await runCli(['map', copy, '--verbose']);
    expect(first.code).toBe(0);
    expect(stagesOf(first.stderr)).toEqual(WARM_MAP_STAGES);
    expect(first.stdout).toBe(await freshMap(copy));
    expect(await cliTags(copy)).toEqual(await cliTags(copy, ['--cache-dir', scratch('fresh-tags')]));
  });

  test('a fresh git clone: the same, git history and all', async () => {
    const source = polyglotCopy();
    git(source, 'init', '-q');
    git(source, 'add', '.');
    git(source, 'commit', '-q', '-m', 'polyglot');
    const artifact = await exported(source);
    const clone = join(scratch('artifact-clone'), 'clone');
    git(tmpdir(), 'clone', '-q', source, clone);
    expect(await imported(artifact, clone)).toMatchObject({ changed: 0, absent: 0, missing: 0, derived: true });

    const first = await runCli(['map', clone, '--verbose']);
    expect(first.code).toBe(0);
    expect(stagesOf(first.stderr)).not.toContain('parse');
    expect(stagesOf(first.stderr)).not.toContain('build tables');
    expect(first.stdout).toBe(await freshMap(clone));
  });

  test('a tree that moved on: a changed file and a new one are parsed by the next run, a deleted one dropped, the imported tables patched', async () => {
    const source = polyglotCopy();
    const artifact = await exported(source);
    const copy = polyglotCopy();
    writeFileSync(join(copy, 'scripts/added.py'), 'def added():\n    return 1\n');
    writeFileSync(join(copy, 'catalog/catalog.go'), `${readFileSync(join(copy, 'catalog/catalog.go'), 'utf8')}\nfunc Changed() int { return 2 }\n`);
    execFileSync('rm', [join(copy, 'README.md')]);
    expect(await imported(artifact, copy)).toMatchObject({ changed: 1, absent: 1, missing: 1, derived: true });

    const next = await runCli(['map', copy, '--verbose']);
    expect(stagesOf(next.stderr)).toEqual(expect.arrayContaining(['parse', 'patch tables']));
    expect(stagesOf(next.stderr)).not.toContain('build tables');
    expect(next.stdout).toBe(await freshMap(copy));
    expect(await cliTags(copy)).toEqual(await cliTags(copy, ['--cache-dir', scratch('fresh-tags')]));
    // With a task too: the lexical tables are patched from the imported ones.
    const task = ['map', copy, '-q', 'catalog changed price', '--verbose'];
    const withTask = await runCli(task);
    expect(stagesOf(withTask.stderr)).toContain('patch lexical tables');
    expect(withTask.stdout).toBe((await runCli([...task.slice(0, -1), '--cache-dir', scratch('fresh-task')])).stdout);
  });

  test('a tree imported whole, then edited: the next map patches the imported tables', async () => {
    const source = polyglotCopy();
    const artifact = await exported(source);
    const copy = polyglotCopy();
    expect(await imported(artifact, copy)).toMatchObject({ changed: 0, absent: 0, missing: 0, derived: true });
    writeFileSync(join(copy, 'api/server.py'), `${readFileSync(join(copy, 'api/server.py'), 'utf8')}\n\ndef refund(order):\n    return order\n`);
    const next = await runCli(['map', copy, '--verbose']);
    expect(stagesOf(next.stderr)).toEqual(expect.arrayContaining(['parse', 'patch tables']));
    expect(stagesOf(next.stderr)).not.toContain('build tables');
    expect(next.stdout).toBe(await freshMap(copy));
  });
});

test('values under the store’s own keys (its stamps, its generation) in an artifact are not taken: the map is still a fresh index’s', async () => {
  const source = polyglotCopy();
  const frames: ArtifactFrame[] = [];
  await readArtifact(await exported(source), (frame) => {
    frames.push({ ...frame, value: new Uint8Array(frame.value) });
  });
  // Stamps that would make every record stand for any file, and a generation far ahead.
  const forged = [
    ...frames,
    { kind: 'derived', key: 'stamps', value: new Uint8Array(64) },
    { kind: 'derived', key: 'generation', value: new Uint8Array(8).fill(7) },
  ] as ArtifactFrame[];
  const artifact = join(scratch('artifact-forged'), 'forged.rmi');
  await writeArtifact(artifact, forged);
  const copy = polyglotCopy();
  expect(await imported(artifact, copy)).toMatchObject({ changed: 0, missing: 0, derived: true });
  const store = await openStore(copy, {});
  const [generation, stamps] = [store.generation(), store.derivedValue('stamps')?.length];
  await store.close();
  // The import's commits moved the generation on from 0, and its own stamps were saved.
  expect(generation).toBeGreaterThan(0);
  expect(stamps).not.toBe(64);
  writeFileSync(join(copy, 'scripts/seed.js'), `${readFileSync(join(copy, 'scripts/seed.js'), 'utf8')}\nfunction reseed() {}\n`);
  const map = await runCli(['map', copy, '--verbose']);
  expect(stagesOf(map.stderr)).toContain('parse');
  expect(map.stdout).toBe(await freshMap(copy));
});

describe('a bad artifact is refused with one line, and the store is left as it was', () => {
  let artifact: string;
  let bytes: Buffer;
  let target: string;
  let storeBefore: Buffer;

  beforeAll(async () => {
    const source = polyglotCopy();
    artifact = await exported(source);
    bytes = readFileSync(artifact);
    // The target has a store of its own, from another tree: what a refused import must not touch.
    target = polyglotCopy();
    writeFileSync(join(target, 'web/extra.ts'), 'export const extra = 1;\n');
    expect((await runCli(['index', target])).code).toBe(0);
    storeBefore = readFileSync(join(target, '.repomap', storeFileName(target)));
  });

  function storeFileName(root: string): string {
    return execFileSync('ls', [join(root, '.repomap')], { encoding: 'utf8' })
      .split('\n')
      .find((name) => /^tags-v\d+\.mdb$/.test(name))!;
  }

  function variant(name: string, make: (copy: Buffer) => Buffer): string {
    const path = join(scratch(`artifact-${name}`), `${name}.rmi`);
    writeFileSync(path, make(Buffer.from(bytes)));
    return path;
  }

  const refusals: [string, (copy: Buffer) => Buffer, RegExp][] = [
    ['corrupt', (copy) => flip(copy, HEADER_BYTES + Math.floor((copy.length - HEADER_BYTES) / 2)), /is corrupt/],
    ['truncated', (copy) => copy.subarray(0, copy.length - 100), /is truncated \(\d+ of \d+ bytes\)/],
    ['foreign', () => Buffer.from('{"name": "not an artifact"}\n'), /is not a repomap index artifact/],
    ['empty', () => Buffer.alloc(0), /is not a repomap index artifact/],
    ['version-mismatched', (copy) => withUint16(copy, 10, copy.readUInt16LE(10) - 1), /holds records of version \d+; this repomap reads version \d+/],
    ['a later format', (copy) => withUint16(copy, 8, 99), /is an artifact of format 99/],
    ['trailing bytes', (copy) => Buffer.concat([copy, Buffer.from('x')]), /is corrupt \(1 bytes after its end\)/],
  ];

  test.each(refusals)('%s', async (name, make, message) => {
    const path = variant(name.replace(/ /g, '-'), make);
    await expectOneLineError(['import', path, target], 1, new RegExp(`^repomap: .*${message.source}`));
    expect(readFileSync(join(target, '.repomap', storeFileName(target))).equals(storeBefore)).toBe(true);
  });

  test('a missing file, a folder and a FIFO (refused, not waited on)', async () => {
    await expectOneLineError(['import', join(target, 'no-such.rmi'), target], 1, /^repomap: cannot read .*no-such\.rmi \(ENOENT/);
    await expectOneLineError(['import', target, target], 1, /^repomap: .* is not a file$/);
    const fifo = join(scratch('artifact-fifo'), 'index.rmi');
    execFileSync('mkfifo', [fifo]);
    await expectOneLineError(['import', fifo, target], 1, /^repomap: .*index\.rmi is not a file$/);
    expect(readFileSync(join(target, '.repomap', storeFileName(target))).equals(storeBefore)).toBe(true);
  });

  test('export into the tree itself warns, in one line, that the artifact becomes one of its files', async () => {
    const tree = polyglotCopy();
    const result = await runCli(['export', join(tree, 'index.rmi'), tree]);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('repomap: warning:'))).toEqual([
      `repomap: warning: ${join(tree, 'index.rmi')} is inside the repository: the next index lists it as one of its files, which trees importing it lack`,
    ]);
  });

  test('export into a folder that does not exist fails with one line and leaves nothing', async () => {
    const folder = join(scratch('artifact-missing'), 'absent');
    await expectOneLineError(['export', join(folder, 'index.rmi'), target], 1, /^repomap: cannot write .*index\.rmi \(ENOENT/);
    mkdirSync(folder);
    expect(execFileSync('ls', ['-A', folder], { encoding: 'utf8' })).toBe('');
  });
});

function withUint16(copy: Buffer, at: number, value: number): Buffer {
  copy.writeUInt16LE(value, at);
  return copy;
}

function flip(copy: Buffer, at: number): Buffer {
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}
