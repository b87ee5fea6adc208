import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectOneLineError, runCli } from '../support/cli.js';
import { copyFixture, filesOf, type RankedJson } from '../support/mapFixture.js';

/**
 * The default ranking (`--ranking task`) on a small Python shop: cart.py totals a cart with
 * pricing.py's apply_discount and add_tax; shipping.py and a test import cart.py; docs/conf.py
 * repeats the words. A bug report about discount codes should lead to cart.py and
 * pricing.py; the test ranks below the code it tests, and the docs, which repeat the report's
 * words, score by the graph alone.
 */
const root = copyFixture('task');
const QUERY = 'Discount code applied twice to the cart total';

async function rankedFiles(args: string[]): Promise<string[]> {
  const result = await runCli(['map', root, '--format', 'json', ...args]);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as RankedJson).files.map((file) => file.path);
}

async function mapText(args: string[]): Promise<string> {
  const result = await runCli(['map', root, ...args]);
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('the task ranking', () => {
  test('the query leads to the code it is about; the test and the docs rank below it (--tests demote, the default)', async () => {
    expect(await rankedFiles(['-q', QUERY])).toEqual([
      'shop/cart.py',
      'shop/pricing.py',
      'shop/shipping.py',
      'docs/conf.py',
      'tests/test_pricing.py',
      'README.md',
      'shop/__init__.py',
    ]);
  });

  test('--tests include ranks the test with the code; --tests exclude leaves it out of the ranking and the map', async () => {
    // The query is prose: its words are not read as names cart.py defines (TaskText.codeWords), and the test repeats them.
    expect((await rankedFiles(['-q', QUERY, '--tests', 'include'])).slice(0, 3)).toEqual(['tests/test_pricing.py', 'shop/cart.py', 'shop/pricing.py']);
    const excluded = await rankedFiles(['-q', QUERY, '--tests', 'exclude']);
    expect(excluded).not.toContain('tests/test_pricing.py');
    expect(filesOf(await mapText(['-q', QUERY, '--tests', 'exclude', '-t', '4096']))).not.toContain('tests/test_pricing.py');
  });

  test('without a query, the graph ranks: pricing.py, which both others use, first', async () => {
    expect((await rankedFiles([])).slice(0, 2)).toEqual(['shop/pricing.py', 'shop/cart.py']);
  });

  test('the map at 120 tokens: the README, then the files the query is about, a signature a line', async () => {
    expect(await mapText(['-q', QUERY, '-t', '120'])).toBe(
      [
        '',
        'README.md',
        '',
        'shop/cart.py:',
        '⋮',
        '│class Cart:',
        '│    def __init__(self):',
        '⋮',
        '│    def total(self):',
        '⋮',
        '',
        'shop/pricing.py:',
        '⋮',
        '│class DiscountCode:',
        '│    def __init__(self, code, percent):',
        '⋮',
        '│def apply_discount(price, discount):',
        '⋮',
        '│def add_tax(price, rate):',
        '⋮',
        '',
        'shop/shipping.py:',
        '⋮',
        '│def shipping_cost(cart: Cart, weight):',
        '⋮',
        '',
      ].join('\n'),
    );
  });

  test('--query-file reads the text from a file, or stdin with -', async () => {
    const file = join(root, '..', `query-${process.pid}.txt`);
    writeFileSync(file, QUERY);
    const expected = await mapText(['-q', QUERY, '-t', '120']);
    expect(await mapText(['--query-file', file, '-t', '120'])).toBe(expected);
    const fromStdin = await runCli(['map', root, '--query-file', '-', '-t', '120'], { input: QUERY });
    expect(fromStdin.stdout).toBe(expected);
    await expectOneLineError(
      ['map', root, '--query-file', join(root, 'no-such-file')],
      1,
      `repomap: cannot read --query-file ${join(root, 'no-such-file')}: ENOENT`,
    );
  });

  test("a task's text is read up to 1 MiB: past it, from a file, a device or stdin, one error line and no map", async () => {
    const limit = 1024 * 1024;
    const file = join(root, '..', `query-${process.pid}-large.txt`);
    writeFileSync(file, `${QUERY}\n${'x'.repeat(limit - QUERY.length - 1)}`);
    expect(await mapText(['--query-file', file, '-t', '120'])).toBe(await mapText(['-q', QUERY, '-t', '120']));
    writeFileSync(file, 'x'.repeat(limit + 1));
    await expectOneLineError(
      ['map', root, '--query-file', file],
      1,
      `repomap: --query-file ${file} holds more than 1048576 bytes, the most a task's text may hold`,
    );
    const overStdin = await runCli(['map', root, '--query-file', '-'], { input: 'x'.repeat(limit + 1) });
    expect(overStdin).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: "repomap: --query-file - holds more than 1048576 bytes, the most a task's text may hold\n",
    });
    writeFileSync(file, 'x'.repeat(limit));
    await expectOneLineError(
      ['map', root, '--query-file', file, '-q', QUERY],
      1,
      `repomap: --query and --query-file ${file} hold more than 1048576 characters together, the most a task's text may hold`,
    );
  });

  // Read whole, /dev/zero grew the process past 16 GB before it aborted: under a 512 MiB data
  // limit, the old reader aborts at once; the bounded one reads 1 MiB and stops.
  const haveDevZero = existsSync('/dev/zero') && existsSync('/bin/sh');
  if (!haveDevZero) console.warn('the /dev/zero --query-file test is skipped: no /dev/zero or /bin/sh here');
  test.skipIf(!haveDevZero)('--query-file /dev/zero is one error line, within a 512 MiB data limit', async () => {
    const result = await runCli(['map', root, '--query-file', '/dev/zero'], { shell: 'ulimit -d 524288 && exec "$0" "$@"' });
    expect(result).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: "repomap: --query-file /dev/zero holds more than 1048576 bytes, the most a task's text may hold\n",
    });
  });

  test('with a chat file: what it imports, with what it uses, then the files that import it, named', async () => {
    expect(await mapText(['-c', 'shop/cart.py', '-t', '60'])).toBe(
      [
        '',
        'README.md',
        '',
        'shop/pricing.py:',
        '⋮',
        '│class DiscountCode:',
        '⋮',
        '│def apply_discount(price, discount):',
        '⋮',
        '│def add_tax(price, rate):',
        '⋮',
        '',
        'shop/shipping.py',
        '',
        'tests/test_pricing.py',
        '',
      ].join('\n'),
    );
  });
});
