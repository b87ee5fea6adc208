import { expect, test } from 'vitest';
import { runCli } from '../support/cli.js';
import { copyFixture } from '../support/mapFixture.js';

/**
 * consts.js defines 80 constants on one line, which a map shows once: at 100 tokens the default
 * ranking, cut at budget ÷ 2 definitions, runs out of entries before the budget does, and the
 * rest of the ranking (user.js, listed bare after every definition) must still be packed.
 */
const root = copyFixture('sharedLine');

test('a map holds the whole ranking when a cut ranking fits the budget, counted cold or warm', async () => {
  for (const run of ['cold', 'warm']) {
    const result = await runCli(['map', root, '-t', '100', '--max-line-length', '40', '-v']);
    expect(result.code, run).toBe(0);
    expect(result.stdout, run).toBe('\nconsts.js:\n│export const N0 = 0, N1 = 1, N2 = 2, N3\n\nuser.js\n');
    expect(result.stderr, run).toContain('map of 82 entries, 31 tokens (budget 100)');
  }
});
