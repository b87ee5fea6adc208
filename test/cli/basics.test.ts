import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, indexJson, makeRepo, runCli } from '../support/cli.js';

/** What users of git, ripgrep and npm expect of a command line. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const UNBUNDLED_CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

describe('the command line', () => {
  const root = makeRepo({
    'a.py': 'def a():\n    pass\n',
    'notes.txt': 'a note\n',
    'empty.py': '',
    'lib/big.py': `def big():\n    return ${'1 + '.repeat(200)}1\n`,
  });

  test.each([['--version'], ['-V']])('%s prints the version in package.json, from the bundle', async (flag) => {
    const result = await runCli([flag]);
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  test('--version works from the unbundled dist/src/cli/main.js too', () => {
    const result = spawnSync(process.execPath, [UNBUNDLED_CLI, '--version'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${VERSION}\n`);
  });

  test.each([['-h'], ['--help']])('%s at the top lists the commands, on stdout', async (flag) => {
    const result = await runCli([flag]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const command of ['index', 'tags', 'map']) expect(result.stdout).toContain(`repomap ${command} [root]`);
    expect(result.stdout).toContain('-V, --version');
  });

  test.each([
    ['map', '-h', '-t, --max-tokens N'],
    ['map', '--help', '--missing-files error|warn'],
    ['map', '--help', '--style signatures|aider'],
    ['index', '-h', '--list-skipped'],
    ['tags', '--help', '--format jsonl'],
  ])('%s %s prints that command’s options, on stdout', async (command, flag, option) => {
    // Help wins over what else is on the line, as git's does.
    const result = await runCli([command, root, '--max-tokens', 'abc', flag]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Usage: repomap ${command} [root] [options]`);
    expect(result.stdout).toContain(option);
    expect(result.stdout).toContain('--cache-dir DIR');
  });

  test('a typo of a command gets a suggestion', async () => {
    await expectOneLineError(['mpa', root], 1, "repomap: unknown command 'mpa'; did you mean 'map'?");
    await expectOneLineError(['indx'], 1, "repomap: unknown command 'indx'; did you mean 'index'?");
    await expectOneLineError(
      ['frobnicate'],
      1,
      "repomap: unknown command 'frobnicate': the commands are index, tags, map, find, deps, refs, at, outline, export, import, merge and mcp (see 'repomap --help')",
    );
  });

  test('a typo of an option gets a suggestion', async () => {
    await expectOneLineError(['map', root, '--max-token', '5'], 1, 'repomap: Unknown argument: max-token; did you mean --max-tokens?');
    await expectOneLineError(['index', root, '--list-skiped'], 1, 'repomap: Unknown argument: list-skiped; did you mean --list-skipped?');
  });

  test.each([
    [['--max-tokens'], '--max-tokens'],
    [['-t', '-v'], '--max-tokens'],
    [['--max-tokens='], '--max-tokens'],
    [['-c'], '--chat-file'],
    [['-c', '--verbose'], '--chat-file'],
    [['-c', 'a.py', '-c'], '--chat-file'],
    [['-t', '5', '-t'], '--max-tokens'],
    [['--cache-dir'], '--cache-dir'],
    [['--ignore', '--verbose'], '--ignore'],
  ])('map %s: a flag with no value is an error naming it', (args, flag) => expectOneLineError(['map', root, ...args], 1, `repomap: ${flag} needs a value`));

  test('an error quotes what was given', async () => {
    await expectOneLineError(['map', root, '-t', 'abc'], 1, "repomap: --max-tokens must be a whole number from 0 to 10000000, not 'abc'");
    await expectOneLineError(['map', root, '-t', '12.5'], 1, "repomap: --max-tokens must be a whole number from 0 to 10000000, not '12.5'");
  });

  test('index --json lists the skipped files and their reasons, sorted by path; --list-skipped prints them as lines', async () => {
    const summary = await indexJson(root, ['--max-file-bytes', '100']);
    expect(summary.skipped).toEqual({ empty: 1, 'no-grammar': 1, 'too-large': 1 });
    expect(summary.skippedFiles).toEqual([
      { path: 'empty.py', reason: 'empty' },
      { path: 'lib/big.py', reason: 'too-large' },
      { path: 'notes.txt', reason: 'no-grammar' },
    ]);
    const listed = await runCli(['index', root, '--list-skipped', '--max-file-bytes', '100']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('empty\tempty.py\ntoo-large\tlib/big.py\nno-grammar\tnotes.txt\n');
    expect(listed.stderr).toMatch(/^repomap: 4 files: 0 parsed, 4 reused, 0 removed, 3 skipped/);
    // A higher limit lets the large file in: it is no longer listed.
    expect((await runCli(['index', root, '--list-skipped'])).stdout).toBe('empty\tempty.py\nno-grammar\tnotes.txt\n');
  });

  test('--json and --list-skipped together are an error', () =>
    expectOneLineError(['index', root, '--json', '--list-skipped'], 1, 'repomap: --json and --list-skipped cannot be combined: the JSON holds skippedFiles'));
});
