import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, makeRepo } from '../support/cli.js';

/**
 * The CLI judges its flags with the library's rules: a value a flag cannot take is exit 1 and
 * one line on stderr naming the flag and quoting the value, before any work.
 */
const INVALID_FLAGS: [string, string[], string][] = [
  ['map', ['-t', '-1'], "--max-tokens must be a whole number, not '-1'"],
  ['map', ['--max-tokens', '1.5'], "--max-tokens must be a whole number, not '1.5'"],
  ['map', ['-t', '0x10'], "--max-tokens must be a whole number, not '0x10'"],
  ['map', ['--max-line-length', '0'], "--max-line-length must be a whole number of at least 1, not '0'"],
  ['map', ['--max-context-window', '0'], "--max-context-window must be a whole number of at least 1, not '0'"],
  ['map', ['--map-mul-no-files', '2.5'], "--map-mul-no-files must be a whole number of at least 1, not '2.5'"],
  ['map', ['--pagerank-damping', '1'], "--pagerank-damping must be a number greater than 0 and less than 1, not '1'"],
  ['map', ['--pagerank-damping', '0'], "--pagerank-damping must be a number greater than 0 and less than 1, not '0'"],
  ['map', ['--pagerank-tol', '0'], "--pagerank-tol must be a number greater than 0, not '0'"],
  ['map', ['--pagerank-max-iter', '0'], "--pagerank-max-iter must be a whole number of at least 1, not '0'"],
  ['map', ['--format', 'xml'], "--format must be one of text, json, not 'xml'"],
  ['map', ['--missing-files', 'ignore'], "--missing-files must be one of error, warn, not 'ignore'"],
  ['map', ['--style', 'dense'], "--style must be one of signatures, aider, not 'dense'"],
  ['tags', ['--format', 'json'], "--format must be one of jsonl, not 'json'"],
  ['index', ['--jobs', '0'], "--jobs must be a whole number of at least 1, not '0'"],
  ['index', ['--jobs', '1.5'], "--jobs must be a whole number of at least 1, not '1.5'"],
  ['map', ['--max-file-bytes', '-1'], "--max-file-bytes must be a whole number, not '-1'"],
  ['index', ['--file-timeout-ms', '0'], "--file-timeout-ms must be a number greater than 0, not '0'"],
];

describe('the CLI rejects a flag value it cannot use', () => {
  test.each(INVALID_FLAGS)('%s %s', async (command, args, message) => {
    const root = makeRepo({ 'a.py': 'def a():\n    pass\n' });
    await expectOneLineError([command, root, ...args], 1, `repomap: ${message}`);
    expect(existsSync(join(root, '.repomap'))).toBe(false);
  });
});
