import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, filesOf, lines, mapWithin, rankingOf, rankOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * Anchors (`-a FILE`, `-a IDENT`, `-a FILE:IDENT`) on a small Java bank: ten times a mentioned
 * file's personalization, and in the map ahead of every ranked entry.
 *
 * The graph, referencer → definer, weight = multipliers × √(reference count):
 *   Account.java → itself  Account √4 (two types, two `new`); CASH_DESK 0.1 (read only as
 *                          `Account.CASH_DESK`, a field access, which is no reference)       out 2.1
 *   Ledger.java → Account  Account √2; → itself Entry √3, entries 0.1                      out 3.25
 *   InterestPolicy.java → Account 1; → itself monthlyInterest 0.1 (no call anywhere)       out 1.1
 *   FlatInterest.java → InterestPolicy 10 (long camel); → Account 1;
 *                     → itself FlatInterest 0.1, monthlyInterest 0.1                        out 11.2
 *   DepositCommand.java and WithdrawCommand.java alike: → Account Account √3,
 *     withBalance 10; → Ledger Ledger √3, post 1; → itself their class 0.1, run 0.1        out 14.66
 * The two commands are mirror images, referenced by no file: whatever personalization they get,
 * their ranks stand in its ratio.
 */
const root = copyFixture('anchors');
const deposit = join(root, 'src/bank/cli/DepositCommand.java');
const withdraw = join(root, 'src/bank/cli/WithdrawCommand.java');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

/** What Account.java shows for Account, CASH_DESK or withBalance: the record's header is its whole body. */
const ACCOUNT_BLOCK = [
  '',
  'src/bank/Account.java:',
  '⋮',
  '│public record Account(String id, String owner, long balanceCents) {',
  '│    public static final Account CASH_DESK = new Account("cash", "Cash desk", 0);',
  '│',
  '│    public Account withBalance(long cents) {',
  '│        return new Account(id, owner, cents);',
  '│    }',
  '⋮',
];

describe('anchors', () => {
  test('the ranking without anchors', async () => {
    const ranked = await rankingOf(root);
    // Account: Account.java keeps 2/2.1 of its own rank (0.81) and every file sends it some.
    // CASH_DESK: the other 0.1/2.1 of Account.java (0.039). withBalance: 10/14.66 of each
    // command (2 × 0.025 × 0.68 = 0.035). Entry: √3/3.25 of Ledger.java (0.034).
    // InterestPolicy: 10/11.2 of FlatInterest.java (0.023).
    expect(topDefinitions(ranked, 5)).toEqual([
      'src/bank/Account.java Account',
      'src/bank/Account.java CASH_DESK',
      'src/bank/Account.java withBalance',
      'src/bank/Ledger.java Entry',
      'src/bank/InterestPolicy.java InterestPolicy',
    ]);
    expect(rankOf(ranked, 'src/bank/cli/DepositCommand.java')).toBe(rankOf(ranked, 'src/bank/cli/WithdrawCommand.java'));
    const { text } = await mapWithin(encoding, root, 128, AIDER_STYLE);
    // Account's three definitions render alike (81 tokens); Entry's Ledger.java block would not fit.
    expect(text).toBe(lines(...ACCOUNT_BLOCK));
  });

  test('an anchor weighs ten times a mentioned file', async () => {
    const ranked = await rankingOf(root, ['-a', deposit, '-m', withdraw]);
    // Personalization 10·(100/N) against 100/N: mirror images, so exactly ten times the rank.
    expect(rankOf(ranked, 'src/bank/cli/DepositCommand.java') / rankOf(ranked, 'src/bank/cli/WithdrawCommand.java')).toBeCloseTo(10, 9);
    const both = await rankingOf(root, ['-m', deposit, '-m', withdraw]);
    expect(rankOf(both, 'src/bank/cli/DepositCommand.java')).toBe(rankOf(both, 'src/bank/cli/WithdrawCommand.java'));
  });

  test('-a FILE: the file is in the map before any ranked entry, and its rank rises', async () => {
    const ranked = await rankingOf(root, ['-a', join(root, 'src/bank/InterestPolicy.java')]);
    // InterestPolicy.java is the only personalized file: every teleport lands on it. It passes
    // 1/1.1 to Account and keeps 0.1/1.1 in monthlyInterest's self-edge, which rises from
    // seventh (0.0044) to third (0.015); FlatInterest.java, referenced by no file, falls to ≈ 0.
    expect(topDefinitions(ranked, 3)).toEqual([
      'src/bank/Account.java Account',
      'src/bank/Account.java CASH_DESK',
      'src/bank/InterestPolicy.java monthlyInterest',
    ]);
    expect(scoreOf(ranked, 'src/bank/InterestPolicy.java', 'monthlyInterest')).toBeCloseTo(rankOf(ranked, 'src/bank/InterestPolicy.java') / 11, 12);
    // At 16 tokens, the bare anchored file is the whole map (9 tokens): it comes first.
    const tiny = await mapWithin(encoding, root, 16, [...AIDER_STYLE, '-a', join(root, 'src/bank/InterestPolicy.java')]);
    expect(tiny.text).toBe(lines('', 'src/bank/InterestPolicy.java'));
    // At 128, the anchor, then Account, CASH_DESK and monthlyInterest: the file's bare entry
    // and its ranked definition merge into one block.
    const { text } = await mapWithin(encoding, root, 128, [...AIDER_STYLE, '-a', join(root, 'src/bank/InterestPolicy.java')]);
    expect(text).toBe(
      lines(
        ...ACCOUNT_BLOCK,
        '',
        'src/bank/InterestPolicy.java:',
        '⋮',
        '│public interface InterestPolicy {',
        '│    long monthlyInterest(Account account);',
        '⋮',
      ),
    );
  });

  test('-a FILE:IDENT: that one definition, with its scope', async () => {
    const spec = `${join(root, 'src/bank/InterestPolicy.java')}:monthlyInterest`;
    const small = await mapWithin(encoding, root, 32, [...AIDER_STYLE, '-a', spec]);
    expect(small.text).toBe(
      lines('', 'src/bank/InterestPolicy.java:', '⋮', '│public interface InterestPolicy {', '│    long monthlyInterest(Account account);', '⋮'),
    );
    expect(small.stderr).not.toContain('warning');
    // The same personalization as anchoring the file.
    const ranked = await rankingOf(root, ['-a', spec]);
    const byFile = await rankingOf(root, ['-a', join(root, 'src/bank/InterestPolicy.java')]);
    expect(ranked.definitions).toEqual(byFile.definitions);
  });

  test('-a IDENT defined in two files: both definitions, the weight split between them', async () => {
    const { text, stderr } = await mapWithin(encoding, root, 128, [...AIDER_STYLE, '-a', 'monthlyInterest']);
    expect(stderr).toContain(
      'anchor monthlyInterest is defined in 2 files (src/bank/FlatInterest.java, src/bank/InterestPolicy.java); its weight is split between them',
    );
    // FlatInterest's method shows the class's first ten lines: its scope header (grep-ast's
    // limit), which is why the two anchors fill 123 of the 128 tokens.
    expect(filesOf(text)).toEqual(['src/bank/FlatInterest.java', 'src/bank/InterestPolicy.java']);
    expect(text).toContain('│    public long monthlyInterest(Account account) {');
    expect(text).toContain('│    long monthlyInterest(Account account);');
    // Half an anchor each, on the mirror-image commands: the same as mentioning both.
    const split = await mapWithin(encoding, root, 256, [...AIDER_STYLE, '-a', 'run']);
    expect(filesOf(split.text)).toEqual(['src/bank/cli/DepositCommand.java', 'src/bank/cli/WithdrawCommand.java']);
    const anchored = await rankingOf(root, ['-a', 'run']);
    expect(anchored.definitions).toEqual((await rankingOf(root, ['-m', deposit, '-m', withdraw])).definitions);
  });
});
