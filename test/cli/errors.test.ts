import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { expectOneLineError, makeRepo } from '../support/cli.js';

describe('CLI errors', () => {
  const root = makeRepo({ 'a.py': 'def a():\n    pass\n' });

  test('a missing root', () => expectOneLineError(['index', join(root, 'nope')], 1, /^repomap: root .*nope does not exist$/));

  test('a root that is a file', async () => {
    writeFileSync(join(root, 'file.txt'), 'x');
    await expectOneLineError(['index', join(root, 'file.txt')], 1, /^repomap: root .*file\.txt is not a directory$/);
  });

  test('an unknown flag', () => expectOneLineError(['index', root, '--frobnicate'], 1, /^repomap: Unknown argument: frobnicate$/));

  test('a bad --jobs', () => expectOneLineError(['index', root, '--jobs', '0'], 1, /^repomap: --jobs must be a whole number/));

  test('no command', () => expectOneLineError([], 1, /^repomap: name a command/));

  test('tags of a missing root', () => expectOneLineError(['tags', join(root, 'nope')], 1, /does not exist$/));
});
