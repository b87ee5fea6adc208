import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildMap, type MapOptions } from '../../dist/src/index.js';
import { StageTimer } from '../../dist/src/stageTimer.js';
import { runCli, stagesOf, WARM_MAP_STAGES } from '../support/cli.js';
import { commitHistory } from '../support/gitRepo.js';
import { copyFixture, type RankedJson } from '../support/mapFixture.js';

/**
 * The git signals on the task fixture's small shop (see task.test.ts), committed three times:
 * every file (oldest), then shipping.py with cart.py, then shipping.py alone (newest). A commit
 * two back weighs 2^(−2/200) = 0.99309250, one back 2^(−1/200) = 0.99654026.
 */
const QUERY = 'Discount code applied twice to the cart total';

const shipping = (perKilo: number) => `from shop.cart import Cart\n\n\ndef shipping_cost(cart: Cart, weight):\n    return 4 + weight * ${perKilo}\n`;

function committedShop(): string {
  const root = copyFixture('task');
  commitHistory(root, [
    { date: 1_600_000_000, files: {} },
    {
      date: 1_600_086_400,
      files: { 'shop/shipping.py': shipping(2), 'shop/cart.py': `${readFileSync(join(root, 'shop/cart.py'), 'utf8')}\n# Shipping is added at checkout.\n` },
    },
    { date: 1_600_172_800, files: { 'shop/shipping.py': shipping(3) } },
  ]);
  return root;
}

async function ranks(root: string, args: string[]): Promise<Map<string, number>> {
  const result = await runCli(['map', root, '--format', 'json', '-q', QUERY, ...args]);
  expect(result.code).toBe(0);
  return new Map((JSON.parse(result.stdout) as RankedJson).files.map((file) => [file.path, file.rank]));
}

async function libraryRanks(options: MapOptions): Promise<Map<string, number>> {
  const map = await buildMap({ query: QUERY, ...options });
  return new Map(map.ranked.files.map((file) => [file.path, file.rank]));
}

describe('the git signals', () => {
  test('on by default: each file × (1 + 0.3 × log(1 + its recency) / the highest of them); --no-git-signals: off', async () => {
    const root = committedShop();
    const without = await ranks(root, ['--no-git-signals']);
    const withGit = await ranks(root, []);
    // Recency: shipping.py 1 + 0.99654026 + 0.99309250 = 2.98963276; cart.py 1.98963276; the rest 0.99309250.
    // log(1 + r) / log(3.98963276): shipping.py 1, cart.py 0.79146578, the rest 0.49843742. Files of rank 0 stay 0.
    const factors = Object.fromEntries([...withGit].map(([path, rank]) => [path, rank === 0 ? 0 : (rank / without.get(path)!).toFixed(8)]));
    expect(factors).toEqual({
      'shop/shipping.py': '1.30000000',
      'shop/cart.py': '1.23743973',
      'shop/pricing.py': '1.14953123',
      'docs/conf.py': '1.14953123',
      'tests/test_pricing.py': '1.14953123',
      'README.md': 0,
      'shop/__init__.py': 0,
    });
    expect([...withGit.keys()].slice(0, 3)).toEqual(['shop/cart.py', 'shop/pricing.py', 'shop/shipping.py']);
    expect(await ranks(root, ['--git-signals'])).toEqual(withGit);
  });

  test('with a chat file: no recency, and 0.3 × its co-change, normalised, added to each file’s score (× 0.3 for a test)', async () => {
    const root = committedShop();
    const request = { root, chatFiles: ['shop/cart.py'] };
    const without = await libraryRanks({ ...request, gitSignals: false });
    const withGit = await libraryRanks(request);
    // Changed with cart.py: shipping.py 0.99654026 / 1 + 0.99309250 / 6 = 1.16205568, every other file 0.16551542
    // (0.14243329 of it); the test × 0.3, the docs × 0.25.
    const added = Object.fromEntries([...withGit].map(([path, rank]) => [path, (rank - without.get(path)!).toFixed(8)]));
    expect(added).toEqual({
      'shop/shipping.py': '0.30000000',
      'shop/pricing.py': '0.04272999',
      'docs/conf.py': '0.01068250',
      'tests/test_pricing.py': '0.01281900',
      'README.md': '0.04272999',
      'shop/__init__.py': '0.04272999',
    });
  });

  test('a warm map reads the history from the store: it parses nothing, builds no tables, loads no tokenizer', async () => {
    const root = committedShop();
    const stages = async () => {
      const result = await runCli(['map', root, '-q', QUERY, '--verbose']);
      expect(result.code).toBe(0);
      return stagesOf(result.stderr);
    };
    expect(await stages()).toEqual(expect.arrayContaining(['parse', 'build tables', 'git history']));
    // The warm map's stages, with the task's lexical tables read, and the history read (from the store) between two turns of ranking.
    const rankAt = WARM_MAP_STAGES.indexOf('rank');
    expect(await stages()).toEqual([...WARM_MAP_STAGES.slice(0, rankAt), 'read lexical tables', 'rank', 'git history', ...WARM_MAP_STAGES.slice(rankAt)]);
  });

  test('outside a git work tree: no signal, no error, and git is not asked', async () => {
    const root = copyFixture('task');
    expect(await ranks(root, [])).toEqual(await ranks(root, ['--no-git-signals']));
    const result = await runCli(['map', root, '-q', QUERY, '--verbose']);
    expect(result.stderr).toMatch(/timing: /);
    expect(result.stderr).not.toMatch(/git history/);
  });

  test('git runs only when a signal can weigh: on, and recency without chat files (or with them, when asked) or co-change with them', async () => {
    const root = committedShop();
    const stages = async (options: MapOptions) => {
      const timer = new StageTimer();
      await buildMap({ root, query: QUERY, timer, ...options });
      return timer.report();
    };
    const chatFiles = ['shop/cart.py'];
    expect(await stages({ gitSignals: false })).not.toContain('git history');
    expect(await stages({ signals: { recency: 0 } })).not.toContain('git history');
    expect(await stages({ ranking: 'aider' })).not.toContain('git history');
    expect(await stages({ chatFiles, signals: { coChange: 0 } })).not.toContain('git history');
    expect(await stages({})).toContain('git history');
    expect(await stages({ chatFiles })).toContain('git history');
    expect(await stages({ chatFiles, signals: { coChange: 0, recencyWithChatFiles: true } })).toContain('git history');
  });
});
