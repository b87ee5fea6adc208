import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { allowedProgram, type Traced, tracedCli, traceUnavailable, within } from '../support/fileSystemTrace.js';

/**
 * A hostile tree points out of its root every way it can (symlinked files, folders and ignore
 * files, a FIFO, a git config whose keys run commands or name a work tree outside): traced to
 * the system call, a run reads no file of the folder beside the root those point at, writes
 * nothing outside its cache folder, and starts no program but node and git.
 */
const OUTSIDE_NAMES = ['LEAKED_FILE', 'LEAKED_FOLDER', 'LEAKED_WORK_TREE'];

function hostileTree(): { root: string; outside: string; marker: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'repomap-traced-')));
  const root = join(base, 'repo');
  const outside = join(base, 'outside');
  const marker = join(outside, 'ran');
  mkdirSync(join(outside, 'folder'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(outside, 'secret.py'), 'def LEAKED_FILE():\n    pass\n');
  writeFileSync(join(outside, 'folder', 'inner.py'), 'def LEAKED_FOLDER():\n    pass\n');
  writeFileSync(join(outside, 'work_tree.py'), 'def LEAKED_WORK_TREE():\n    pass\n');
  writeFileSync(join(outside, 'rules'), '*.py\n');
  writeFileSync(join(root, 'src', 'app.py'), 'def app():\n    return helper()\n\n\ndef helper():\n    return 1\n');
  symlinkSync(join(root, 'src', 'app.py'), join(root, 'src', 'alias.py'));
  symlinkSync(join(outside, 'secret.py'), join(root, 'src', 'secret.py'));
  symlinkSync(join(outside, 'folder'), join(root, 'folder'));
  symlinkSync(join(outside, 'rules'), join(root, 'src', '.gitignore'));
  spawnSync('mkfifo', [join(root, 'src', 'pipe.py')]);
  return { root, outside, marker };
}

/** Makes `root` a git work tree whose config (partly through an included file of the tree) would run commands and list a folder outside. */
function hostileGit(root: string, outside: string, marker: string): void {
  const git = (...args: string[]) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  git('init', '-q');
  git('add', 'src/app.py');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first');
  const run = `echo ran >> ${marker}; false`;
  writeFileSync(join(root, 'evil.cfg'), `[core]\n\tfsmonitor = "${run}"\n`);
  git('config', 'include.path', join(root, 'evil.cfg'));
  git('config', 'core.hooksPath', join(outside, 'hooks'));
  git('config', 'core.pager', run);
  git('config', 'log.showSignature', 'true');
  git('config', 'gpg.program', join(outside, 'gpg'));
  git('config', 'core.worktree', outside);
}

function expectContained(traced: Traced, root: string, outside: string): void {
  const { result } = traced;
  expect(result.signal).toBeNull();
  expect(result.code).toBe(0);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const name of OUTSIDE_NAMES) expect(result.stdout).not.toContain(name);
  expect(traced.executed.filter((program) => !allowedProgram(program))).toEqual([]);
  expect(traced.read.filter(within(outside))).toEqual([]);
  expect(traced.written.filter((path) => !within(join(root, '.repomap'))(path) && path !== '/dev/null')).toEqual([]);
}

describe.skipIf(traceUnavailable !== null)(`traced to the system call${traceUnavailable ? ` (skipped: ${traceUnavailable})` : ''}`, () => {
  test('a tree outside git: index, map and tags read nothing it points at outside, write only the cache folder', async () => {
    const { root, outside } = hostileTree();
    const indexed = await tracedCli(['index', root]);
    expectContained(indexed, root, outside);
    // The trace sees what a run does: the source it read, the store it wrote.
    expect(indexed.read).toContain(join(root, 'src', 'app.py'));
    expect(indexed.written).toContain(join(root, '.repomap', STORE_FILE));
    for (const command of ['map', 'tags']) expectContained(await tracedCli([command, root]), root, outside);
  });

  test('a git work tree whose config would run commands: only node and git run, nothing outside is read', async () => {
    const { root, outside, marker } = hostileTree();
    hostileGit(root, outside, marker);
    for (const command of ['index', 'map', 'tags']) expectContained(await tracedCli([command, root]), root, outside);
    expect(spawnSync('test', ['-e', marker]).status).toBe(1);
  });
});
