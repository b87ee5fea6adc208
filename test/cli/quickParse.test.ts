import { describe, expect, test } from 'vitest';
import type { CommandArgs, CommandName } from '../../dist/src/cli/commandTable.js';
import { quickParse } from '../../dist/src/cli/quickParse.js';
import { parseWithYargs } from '../../dist/src/cli/yargsCli.js';

/**
 * The quick parser (node's parseArgs, so a map need not load yargs) must hand a command exactly
 * what yargs would, or step aside (null) and let yargs parse the line.
 */
async function yargsParse(argv: string[]): Promise<{ command: CommandName; args: CommandArgs }> {
  let parsed: { command: CommandName; args: CommandArgs } | null = null;
  await parseWithYargs(argv, async (command, args) => {
    parsed = { command, args };
    return 0;
  });
  return parsed!;
}

/** The arguments a command reads: yargs' own extras (`$0`, the alias keys) left aside. */
function commandView(args: CommandArgs): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => key !== '$0' && (key === '_' || key.length > 1)));
}

const PLAIN_LINES = [
  ['map'],
  ['map', '.'],
  ['map', 'some/root', '-t', '2048'],
  ['map', '--max-tokens=4096', '--root', 'r'],
  ['map', '.', '-c', 'a.py', '-c', 'b.py', '-m', 'c.py', '-i', 'Name', '-a', 'x.py:f'],
  ['map', '.', '--chat-file', 'a.py', '--exclude-unranked', '--format', 'json', '-v'],
  ['map', '.', '--git-signals', '-q', 'a bug'],
  ['map', '.', '--no-git-signals', '--no-verbose', '--no-exclude-unranked'],
  ['map', '--max-context-window', '128000', '--map-mul-no-files', '2', '.'],
  ['map', '.', '--pagerank-damping', '0.5', '--pagerank-tol', '1e-8', '--pagerank-max-iter', '50', '--max-line-length', '80'],
  ['map', '.', '--ignore', 'gen/**', '--ignore', '*.min.js', '--jobs', '1', '--cache-dir', '/tmp/c'],
  ['index', 'root', '--json', '--max-file-bytes', '2048', '--file-timeout-ms', '500'],
  ['tags', 'root', '--format', 'jsonl'],
  ['map', '123'],
  // Roots and words past them: runCommand judges them, whichever parser read them.
  ['map', 'a', 'b'],
  ['map', 'a', '--root', 'b'],
  ['map', '--root', 'a', 'a'],
];

/** Lines where the two parsers could differ: the quick one must leave them to yargs. */
const LINES_FOR_YARGS = [
  ['map', '.', '-c', 'a.py', 'b.py'],
  ['map', '--verbose', 'false'],
  ['map', '-t2048'],
  ['map', '-vt', '5'],
  ['map', '-t', '5', '--max-tokens', '6'],
  ['map', '--maxTokens', '5'],
  ['map', '--no-max-tokens'],
  ['map', '--git-signals', '--no-git-signals'],
  ['map', '--format', 'yaml'],
  ['map', '-t', '0x10'],
  ['map', '--', '-odd-root'],
  ['map', '--help'],
  ['map', '--bogus'],
  ['frobnicate'],
  [],
];

describe('the quick parser', () => {
  test.each(PLAIN_LINES)('reads %s as yargs does', async (...argv) => {
    const quick = quickParse(argv);
    expect(quick).not.toBeNull();
    const full = await yargsParse(argv);
    expect(quick!.command).toBe(full.command);
    expect(commandView(quick!.args)).toEqual(commandView(full.args));
  });

  test.each(LINES_FOR_YARGS)('leaves %s to yargs', (...argv) => {
    expect(quickParse(argv)).toBeNull();
  });
});
