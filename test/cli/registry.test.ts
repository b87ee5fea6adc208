import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../dist/src/cli/commandTable.js';
import { expectOneLineError, runCli } from '../support/cli.js';

/** The registry's rows are what the help, both parsers and runCommand read. */
describe('the command registry', () => {
  const names = Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];

  test('the main help lists every row with its positionals', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const listed = help.stdout.split('\n').filter((line) => line.startsWith('  repomap '));
    expect(listed.map((line) => line.trim().split(/\s{2,}/)[0])).toEqual([
      'repomap index [root]',
      'repomap tags [root]',
      'repomap map [root]',
      'repomap find NAME',
      'repomap deps FILE',
      'repomap refs FILE',
      'repomap at FILE:LINE[:COL]...',
      'repomap outline [PATH]',
      'repomap export FILE [root]',
      'repomap import FILE [root]',
      'repomap merge PART...',
      'repomap mcp',
    ]);
    expect(listed).toHaveLength(names.length);
  });

  test.each(names)("'%s --help' names its arguments and every option of its row", async (name) => {
    const help = await runCli([name, '--help']);
    expect(help.code).toBe(0);
    for (const spec of Object.values(COMMANDS[name].options)) expect(help.stdout).toContain(`--${spec.flag}`);
    for (const positional of COMMANDS[name].positionals) expect(help.stdout).toContain(positional.describe);
  });

  test('a missing required positional, and a word past the last, are one line and exit 1', async () => {
    await expectOneLineError(['find'], 1, "repomap: find needs a NAME (see 'repomap find --help')");
    await expectOneLineError(['deps', 'a.py', 'b.py'], 1, "repomap: unexpected argument 'b.py': repomap deps takes one FILE");
  });
});
