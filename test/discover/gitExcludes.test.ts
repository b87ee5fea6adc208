import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { discoverFiles } from '../../dist/src/discover/discoverFiles.js';
import { indexJson, makeRepo } from '../support/cli.js';

describe('inside a git work tree, untracked files in default-excluded folders are left out as a walk leaves them', () => {
  const root = makeRepo({
    '.gitignore': 'ignored.py\ngenerated/\n',
    'src/app.ts': 'export function app() {}\n',
    'ignored.py': 'x = 1\n',
    'generated/out.py': 'x = 1\n',
    'node_modules/typescript/lib/lib.dom.d.ts': 'interface Window {}\n',
    'packages/web/node_modules/left-pad/index.js': 'module.exports = 1;\n',
    'vendor/github.com/x/y/y.go': 'package y\n',
    'vendor/tracked/kept.go': 'package tracked\n',
    'build/gen.py': 'x = 1\n',
    '.venv/lib/site.py': 'x = 1\n',
    // A file (not a folder) that happens to bear an excluded name stays.
    dist: 'notes\n',
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  // Committed on purpose: tracked files stay wherever they are.
  git('add', 'vendor/tracked/kept.go');

  test('git mode lists tracked files and untracked ones outside ignored and default-excluded folders', () => {
    const discovery = discoverFiles({ root, cacheDir: join(root, '.repomap') });
    expect(discovery.source).toBe('git');
    expect(discovery.files.map((file) => file.path)).toEqual(['.gitignore', 'dist', 'src/app.ts', 'vendor/tracked/kept.go']);
  });

  test('and the index holds only those files', async () => {
    expect(await indexJson(root)).toMatchObject({ files: 4, parsed: 2 });
  });
});
