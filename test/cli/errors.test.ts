import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, makeRepo, runCli } from '../support/cli.js';

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

  // Each line is tried as written (the quick parser's path) and with a flag only yargs reads.
  describe.each([[[]], [['--verbose', 'false']]])('one root, either way (%o)', (extra: string[]) => {
    const other = makeRepo({ 'b.py': 'def b():\n    pass\n' });

    test('a positional root and another --root', async () => {
      const [one, two] = [makeRepo({ 'a.py': 'x = 1\n' }), makeRepo({ 'b.py': 'y = 2\n' })];
      await expectOneLineError(['map', one, '--root', two, ...extra], 1, `repomap: two roots given: ${one} and --root ${two}`);
      await expectOneLineError(['index', `--root=${two}`, one, ...extra], 1, `repomap: two roots given: ${one} and --root ${two}`);
      expect(existsSync(join(one, '.repomap'))).toBe(false);
      expect(existsSync(join(two, '.repomap'))).toBe(false);
    });

    test('words past the root, after -- too', async () => {
      await expectOneLineError(['map', root, other, ...extra], 1, `repomap: unexpected argument '${other}': repomap map takes one root`);
      await expectOneLineError(['map', root, ...extra, '--', 'a.py'], 1, "repomap: unexpected argument 'a.py': repomap map takes one root");
      await expectOneLineError(['tags', ...extra, '--', root, 'a.py'], 1, "repomap: unexpected argument 'a.py': repomap tags takes one root");
    });

    test('the same root twice, and a root after --, are the root', async () => {
      expect(await runCli(['tags', root, '--root', `${root}/`, ...extra])).toMatchObject({ code: 0, stderr: '' });
      const afterDashes = await runCli(['tags', ...extra, '--', other]);
      expect(afterDashes).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(afterDashes.stdout.split('\n')[0]!)).toMatchObject({ rel_fname: 'b.py', name: 'b' });
    });
  });

  test('a --cache-dir whose parent is missing is not made, nor its parents', async () => {
    const parent = join(root, 'no', 'such');
    await expectOneLineError(
      ['index', root, '--cache-dir', join(parent, 'cache')],
      1,
      `repomap: cache dir ${join(parent, 'cache')} cannot be made: ${parent} does not exist`,
    );
    const relative = join(root, 'no', 'such');
    await expectOneLineError(
      ['index', root, '--cache-dir', 'no/such/cache'],
      1,
      `repomap: cache dir ${relative}/cache cannot be made: ${relative} does not exist`,
      {
        cwd: root,
      },
    );
    expect(existsSync(join(root, 'no'))).toBe(false);
    expect(await runCli(['index', root, '--cache-dir', join(root, 'cache')])).toMatchObject({ code: 0 });
    expect(existsSync(join(root, 'cache', '.gitignore'))).toBe(true);
  });
});
