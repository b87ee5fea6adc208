import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, makeRepo } from '../support/cli.js';

/**
 * The CLI judges its flags with the library's rules: a value a flag cannot take is exit 1 and
 * one line on stderr naming the flag and quoting the value, before any work.
 */
const INVALID_FLAGS: [string, string[], string][] = [
  ['map', ['-t', '-1'], "--max-tokens must be a whole number from 0 to 10000000, not '-1'"],
  ['map', ['--max-tokens', '1.5'], "--max-tokens must be a whole number from 0 to 10000000, not '1.5'"],
  ['map', ['-t', '0x10'], "--max-tokens must be a whole number from 0 to 10000000, not '0x10'"],
  ['map', ['-t', '1e8'], "--max-tokens must be a whole number from 0 to 10000000, not '1e8'"],
  ['map', ['--max-line-length', '0'], "--max-line-length must be a whole number from 1 to 10000, not '0'"],
  ['map', ['--max-line-length', '10001'], "--max-line-length must be a whole number from 1 to 10000, not '10001'"],
  ['map', ['--max-context-window', '0'], "--max-context-window must be a whole number from 1 to 10000000, not '0'"],
  ['map', ['--max-context-window', '1e15'], "--max-context-window must be a whole number from 1 to 10000000, not '1e15'"],
  ['map', ['--map-mul-no-files', '2.5'], "--map-mul-no-files must be a whole number from 1 to 1000, not '2.5'"],
  ['map', ['--map-mul-no-files', '1001'], "--map-mul-no-files must be a whole number from 1 to 1000, not '1001'"],
  ['map', ['--pagerank-damping', '1'], "--pagerank-damping must be a number greater than 0 and less than 1, not '1'"],
  ['map', ['--pagerank-damping', '0'], "--pagerank-damping must be a number greater than 0 and less than 1, not '0'"],
  ['map', ['--pagerank-tol', '0'], "--pagerank-tol must be a number greater than 0 and less than 1, not '0'"],
  ['map', ['--pagerank-tol', '5'], "--pagerank-tol must be a number greater than 0 and less than 1, not '5'"],
  ['map', ['--pagerank-max-iter', '0'], "--pagerank-max-iter must be a whole number from 1 to 1000, not '0'"],
  ['map', ['--pagerank-max-iter', '1e9'], "--pagerank-max-iter must be a whole number from 1 to 1000, not '1e9'"],
  ['map', ['--format', 'yaml'], "--format must be one of text, compact, xml, markdown, json, not 'yaml'"],
  ['map', ['--missing-files', 'ignore'], "--missing-files must be one of error, warn, not 'ignore'"],
  ['map', ['--style', 'dense'], "--style must be one of signatures, aider, not 'dense'"],
  ['tags', ['--format', 'json'], "--format must be one of jsonl, not 'json'"],
  ['index', ['--jobs', '0'], "--jobs must be a whole number from 1 to 64, not '0'"],
  ['index', ['--jobs', '1.5'], "--jobs must be a whole number from 1 to 64, not '1.5'"],
  ['index', ['--jobs', '100000'], "--jobs must be a whole number from 1 to 64, not '100000'"],
  ['map', ['--max-file-bytes', '-1'], "--max-file-bytes must be a whole number from 0 to 67108864, not '-1'"],
  ['map', ['--max-file-bytes', '1e12'], "--max-file-bytes must be a whole number from 0 to 67108864, not '1e12'"],
  ['index', ['--file-timeout-ms', '0'], "--file-timeout-ms must be a number greater than 0 and at most 600000, not '0'"],
  ['index', ['--file-timeout-ms', '1e12'], "--file-timeout-ms must be a number greater than 0 and at most 600000, not '1e12'"],
  ['index', ['--index-wait-ms', '1e10'], "--index-wait-ms must be a whole number from 0 to 3600000, not '1e10'"],
  ['map', ['--cache-dir', 'c'.repeat(5000)], '--cache-dir must be a string of at most 4096 characters, not one of 5000'],
  ['map', ['--ignore', `${'*'.repeat(4097)}.py`], '--ignore takes values of at most 4096 characters, not one of 4100'],
  ['map', ['-a', 'x'.repeat(4097)], '--anchor takes values of at most 4096 characters, not one of 4097'],
  ['map', Array.from({ length: 1001 }, (_, i) => `--mention-ident=name${i}`), '--mention-ident takes at most 1000 values, not 1001'],
  ['map', ['--query-file', 'q'.repeat(4097)], '--query-file must be a string of at most 4096 characters, not one of 4097'],
];

describe('the CLI rejects a flag value it cannot use', () => {
  const cases = INVALID_FLAGS.map(([command, args, message]) => [command, args.join(' ').slice(0, 60), args, message] as const);
  test.each(cases)('%s %s', async (command, _, args, message) => {
    const root = makeRepo({ 'a.py': 'def a():\n    pass\n' });
    await expectOneLineError([command, root, ...args], 1, `repomap: ${message}`);
    expect(existsSync(join(root, '.repomap'))).toBe(false);
  });
});
