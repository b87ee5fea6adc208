import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { encodeRecord, recordStamp, stampRecord } from '../../dist/src/record/recordCodec.js';
import { buildRecord } from '../../dist/workers/buildRecord.js';
import { makeRepo } from '../support/cli.js';

const DIST = new URL('../../dist/', import.meta.url).href;
const TEXT = 'def inside():\n    return 1\n';
/** What a child process answers, past which it counts as blocked. */
const CHILD_DEADLINE_MS = 30_000;

/**
 * Runs `body` (an ES module's text, with `root` and `path` bound) in a child process: a check
 * that blocks (opening a FIFO) is killed at the deadline instead of hanging the test run.
 */
function inChild(body: string, root: string, path: string): unknown {
  const script = `const [root, path] = process.argv.slice(1); const dist = ${JSON.stringify(DIST)};\n${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script, root, path], { encoding: 'utf8', timeout: CHILD_DEADLINE_MS });
  if (result.status !== 0) throw new Error(`the child ${result.signal ? `was killed (${result.signal}): it blocked` : `failed: ${result.stderr}`}`);
  return JSON.parse(result.stdout);
}

/** A root holding each kind of thing a source file's name can lead to, and a folder outside it. */
function hostileTree(): string {
  const root = makeRepo({ 'a.py': TEXT });
  const outside = mkdtempSync(join(tmpdir(), 'repomap-outside-'));
  writeFileSync(join(outside, 'secret.py'), 'def secret():\n    pass\n');
  symlinkSync('a.py', join(root, 'link.py'));
  symlinkSync(join(outside, 'secret.py'), join(root, 'out.py'));
  symlinkSync(outside, join(root, 'sub'));
  symlinkSync('/dev/zero', join(root, 'zero.py'));
  mkdirSync(join(root, 'dir.py'));
  expect(spawnSync('mkfifo', [join(root, 'fifo.py')]).status).toBe(0);
  return root;
}

const NO_FILE = { mtimeMs: null, size: null, ctimeMs: null, ino: null };

describe.each(['openSource', 'openSourceByName'])('%s', (opener) => {
  const root = hostileTree();
  const open = (path: string) =>
    inChild(
      `import { readFileSync, closeSync } from 'node:fs';
      const { ${opener}: open } = await import(dist + 'src/indexing/openSource.js');
      const { fd, stamp, skipped } = open(root, path);
      const text = fd === null ? null : readFileSync(fd, 'utf8');
      if (fd !== null) closeSync(fd);
      process.stdout.write(JSON.stringify({ skipped, stamp, text }));`,
      root,
      path,
    );

  test('opens a regular file, or a symlink to one inside the root, stamping the file opened', () => {
    const { mtimeMs, size, ctimeMs, ino } = statSync(join(root, 'a.py'));
    const opened = { skipped: null, stamp: { mtimeMs, size, ctimeMs, ino }, text: TEXT };
    expect(open('a.py')).toEqual(opened);
    expect(open('link.py')).toEqual(opened);
  });

  test('refuses what lies outside the root, through a symlinked file or folder, keeping nothing of it', () => {
    expect(open('out.py')).toEqual({ skipped: 'outside-root', stamp: NO_FILE, text: null });
    expect(open('sub/secret.py')).toEqual({ skipped: 'outside-root', stamp: NO_FILE, text: null });
    expect(open('zero.py')).toEqual({ skipped: 'outside-root', stamp: NO_FILE, text: null });
  });

  test('refuses a FIFO without waiting for a writer, and a folder', () => {
    expect(open('fifo.py')).toEqual({ skipped: 'not-regular', stamp: NO_FILE, text: null });
    expect(open('dir.py')).toEqual({ skipped: 'not-regular', stamp: NO_FILE, text: null });
  });

  test('says a missing file is unreadable, leaving its stamp to discovery', () => {
    expect(open('gone.py')).toEqual({ skipped: 'unreadable', stamp: null, text: null });
  });
});

describe('the stamp a record is stored with', () => {
  test('is the stat of the file read, not the one discovery found', () => {
    const root = makeRepo({ 'a.py': TEXT, 'large.py': `X = "${'x'.repeat(5000)}"\n` });
    const limits = { root, maxFileBytes: 4096, fileTimeoutMs: 10_000 };
    const stale = { language: 'python' as const, mtimeMs: 1, size: 10, ctimeMs: 2, ino: 3 };
    for (const [path, skipped] of [
      ['a.py', null],
      ['large.py', 'too-large'],
    ] as const) {
      const record = buildRecord(limits, { ...stale, path });
      expect(record.skipped).toBe(skipped);
      const value = encodeRecord(record);
      stampRecord(value, limits.fileTimeoutMs, undefined);
      const { mtimeMs, size, ctimeMs, ino } = statSync(join(root, path));
      expect(recordStamp(value)).toMatchObject({ mtimeMs, size, ctimeMs, ino, skipped });
    }
  });
});

describe('an unreadable record checked again', () => {
  test('does not wait on a FIFO now under its name', () => {
    const root = hostileTree();
    const reused = inChild(
      `import { statSync } from 'node:fs';
      const { planIndex } = await import(dist + 'src/indexing/indexPlan.js');
      const { StampTable } = await import(dist + 'src/record/stampTable.js');
      const { mtimeMs, size, ctimeMs, ino } = statSync(root + '/' + path);
      const file = { path, language: 'python', mtimeMs, size, ctimeMs, ino };
      const stamp = { ...file, definitions: 0, references: 0, skipped: 'unreadable', fileTimeoutMs: 1000, retries: 0 };
      const plan = planIndex([file], StampTable.of([[path, stamp]]), { root, maxFileBytes: 1 << 20, fileTimeoutMs: 1000 });
      process.stdout.write(JSON.stringify(plan.reused));`,
      root,
      'fifo.py',
    );
    expect(reused).toBe(1);
  });
});
