import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeRepo, runCli } from '../support/cli.js';
import { git } from '../support/gitRepo.js';

/** A path of `root` with raw bytes in it: `parts` are text or byte lists. */
const bytePath = (root: string, ...parts: (string | number[])[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts.map((part) => Buffer.from(part))]);

/** Whether this file system takes a file name that is not UTF-8 (APFS, for one, refuses it). */
function takesInvalidNames(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'repomap-names-probe-'));
  try {
    writeFileSync(bytePath(probe, 'x', [0xff]), '');
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * Files named with bytes that are not UTF-8 (a byte 0xff, Latin-1 é, a folder named so), one of
 * them ignored, and a name holding U+FFFD written as valid UTF-8, which is an ordinary name.
 */
function repoWithInvalidNames(): string {
  const root = makeRepo({ '.gitignore': '*.log\n', 'good.py': 'def good():\n    pass\n', 'ok\uFFFD.py': 'def ok():\n    pass\n' });
  writeFileSync(bytePath(root, 'bad', [0xff], '.py'), 'def bad():\n    pass\n');
  writeFileSync(bytePath(root, 'noise', [0xfe], '.log'), 'x\n');
  mkdirSync(bytePath(root, 'dir', [0xc3, 0x28]));
  writeFileSync(bytePath(root, 'dir', [0xc3, 0x28], '/inner.py'), 'x = 1\n');
  mkdirSync(join(root, 'sub'));
  writeFileSync(bytePath(root, 'sub/caf', [0xe9], '.py'), 'x = 1\n');
  return root;
}

describe.skipIf(!takesInvalidNames())('a file name that is not UTF-8 is listed as skipped, never indexed', () => {
  test('outside git: each such file, and a folder so named as one entry, with its bytes shown', async () => {
    const root = repoWithInvalidNames();
    const result = await runCli(['index', root, '--list-skipped']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      ['no-grammar\t.gitignore', 'name-not-utf8\tbad\\xff.py', 'name-not-utf8\tdir\\xc3(/', 'name-not-utf8\tsub/caf\\xe9.py', ''].join('\n'),
    );
    expect(result.stderr).toMatch(/^repomap: 6 files: 2 parsed, 0 reused, 0 removed, 4 skipped \(name-not-utf8 3, no-grammar 1\); 2 defs/);
  });

  test('inside a git work tree: each file git lists, tracked or not, with its bytes shown', async () => {
    const root = repoWithInvalidNames();
    git(root, ['init', '-q']);
    git(root, ['add', '-A']);
    writeFileSync(bytePath(root, 'untracked', [0x80], '.py'), 'x = 1\n');
    const result = await runCli(['index', root, '--list-skipped']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'no-grammar\t.gitignore',
        'name-not-utf8\tbad\\xff.py',
        'name-not-utf8\tdir\\xc3(/inner.py',
        'name-not-utf8\tsub/caf\\xe9.py',
        'name-not-utf8\tuntracked\\x80.py',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toMatch(/^repomap: 7 files: 2 parsed, 0 reused, 0 removed, 5 skipped \(name-not-utf8 4, no-grammar 1\); 2 defs/);
  });
});
