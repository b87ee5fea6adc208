import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { discoverFiles } from '../../dist/src/discover/discoverFiles.js';
import { CLI, makeRepo } from '../support/cli.js';

const paths = (root: string, ignore: string[] = []) => discoverFiles({ root, ignore, cacheDir: join(root, '.repomap') }).files.map((file) => file.path);

describe('discovery outside git', () => {
  const root = makeRepo({
    '.gitignore': 'generated/\n*.log\n',
    'src/app.py': 'x = 1\n',
    'src/b.ts': 'export const b = 1;\n',
    'src/nested/.gitignore': 'local_only.py\n',
    'src/nested/local_only.py': 'x = 1\n',
    'src/nested/kept.py': 'x = 1\n',
    'generated/out.py': 'x = 1\n',
    'debug.log': 'x\n',
    'node_modules/dep/index.js': 'x\n',
    'vendor/lib.go': 'package lib\n',
    '__pycache__/a.pyc': 'x',
    '.repomap/tags-v1.mdb': 'x',
    'README.md': '# r\n',
  });

  test('honours .gitignore files at every level and the default excludes, in sorted order', () => {
    expect(paths(root)).toEqual(['.gitignore', 'README.md', 'src/app.py', 'src/b.ts', 'src/nested/.gitignore', 'src/nested/kept.py']);
  });

  test('--ignore patterns leave out more', () => {
    expect(paths(root, ['*.ts', 'src/nested/'])).toEqual(['.gitignore', 'README.md', 'src/app.py']);
  });

  test('languages come from extensions', () => {
    const languages = discoverFiles({ root }).files.map((file) => [file.path, file.language]);
    expect(languages).toContainEqual(['src/app.py', 'python']);
    expect(languages).toContainEqual(['src/b.ts', 'typescript']);
    expect(languages).toContainEqual(['README.md', null]);
  });
});

describe('symlinks', () => {
  test('a link to a file inside the root is followed; one leaving the root is not', () => {
    const outside = mkdtempSync(join(tmpdir(), 'repomap-outside-'));
    writeFileSync(join(outside, 'secret.py'), 'x = 1\n');
    const root = makeRepo({ 'real.py': 'x = 1\n' });
    symlinkSync(join(root, 'real.py'), join(root, 'alias.py'));
    symlinkSync(join(outside, 'secret.py'), join(root, 'escape.py'));
    symlinkSync(outside, join(root, 'linked-dir'));
    symlinkSync(join(root, 'missing.py'), join(root, 'dangling.py'));
    expect(paths(root)).toEqual(['alias.py', 'real.py']);
  });
});

describe('discovery inside a git work tree', () => {
  test('lists tracked and untracked-not-ignored files, not ignored or deleted ones', () => {
    const root = makeRepo({
      '.gitignore': 'ignored.py\n',
      'tracked.py': 'x = 1\n',
      'deleted.py': 'x = 1\n',
      'ignored.py': 'x = 1\n',
    });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.gitignore', 'tracked.py', 'deleted.py');
    git('rm', '-q', '--cached', 'deleted.py');
    writeFileSync(join(root, 'untracked.py'), 'x = 1\n');
    git('add', 'deleted.py');
    execFileSync('rm', [join(root, 'deleted.py')]);
    const discovery = discoverFiles({ root, cacheDir: join(root, '.repomap') });
    expect(discovery.source).toBe('git');
    expect(discovery.files.map((file) => file.path)).toEqual(['.gitignore', 'tracked.py', 'untracked.py']);
  });

  test('from a folder of the work tree: its files only, relative to it', () => {
    const top = makeRepo({ 'top.py': 'x = 1\n', 'sub/tracked.py': 'x = 1\n', 'sub/deep/d.py': 'x = 1\n' });
    execFileSync('git', ['init', '-q'], { cwd: top, stdio: 'ignore' });
    execFileSync('git', ['add', 'top.py', 'sub/tracked.py'], { cwd: top, stdio: 'ignore' });
    const discovery = discoverFiles({ root: join(top, 'sub') });
    expect(discovery.source).toBe('git');
    expect(discovery.files.map((file) => file.path)).toEqual(['deep/d.py', 'tracked.py']);
  });
});

describe('a .gitignore is read only when it is a regular file of a sane size', () => {
  const outsideRules = () => {
    const outside = mkdtempSync(join(tmpdir(), 'repomap-outside-'));
    writeFileSync(join(outside, 'rules'), '*.py\n');
    return join(outside, 'rules');
  };

  test('a FIFO is not opened (nothing waits on it), at the root or below', () => {
    const root = makeRepo({ 'a.py': 'x = 1\n', 'sub/b.py': 'x = 1\n' });
    execFileSync('mkfifo', [join(root, '.gitignore'), join(root, 'sub', '.gitignore')]);
    expect(paths(root)).toEqual(['a.py', 'sub/b.py']);
  });

  test('a link is not followed out of the root (nor in it)', () => {
    const root = makeRepo({ 'a.py': 'x = 1\n', 'sub/b.py': 'x = 1\n', rules: '*.py\n' });
    symlinkSync(outsideRules(), join(root, '.gitignore'));
    symlinkSync(join(root, 'rules'), join(root, 'sub', '.gitignore'));
    expect(paths(root)).toEqual(['a.py', 'rules', 'sub/.gitignore', 'sub/b.py']);
  });

  test('one over 1 MiB is not read', () => {
    const root = makeRepo({ 'a.py': 'x = 1\n', '.gitignore': `*.py\n${'#'.repeat(1024 * 1024)}\n` });
    expect(paths(root)).toEqual(['.gitignore', 'a.py']);
  });

  test('inside a git work tree, a FIFO that blocks git costs its time bound, then the walk lists the files', async () => {
    const root = makeRepo({ 'a.py': 'x = 1\n' });
    execFileSync('git', ['init', '-q'], { cwd: root, stdio: 'ignore' });
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'b.py'), 'x = 1\n');
    execFileSync('mkfifo', [join(root, 'sub', '.gitignore')]);
    // Killed past the deadline, not left hanging: before git had a time bound, it waited on the FIFO forever.
    const child = spawn(process.execPath, [CLI, 'index', root, '--json'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 100_000 });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ files: 2, parsed: 2 });
  }, 120_000);
});
