import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, filePaths, filesOf, lines, mapWithin, rankingOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * A chat file (`-c`) on a TypeScript billing service: two halves that share nothing, customers
 * (customers.ts, routes.ts) and invoicing (money.ts, invoices.ts, billing.ts). With billing.ts in
 * the chat, the ranking turns to what billing.ts uses, and billing.ts leaves the map.
 *
 * The graph (names of 8 or more characters that mix cases are "long camel": ×10):
 *   customers.ts → itself  Customer 10√3 (three type uses)
 *   routes.ts → customers.ts  Customer 10√3, findCustomer 10, saveCustomer 10
 *   routes.ts → itself  getCustomer 10; putCustomer 0.1 (referenced nowhere)   out 47.42
 *   invoices.ts → money.ts  sumCents 10; → itself LineItem 10, Invoice 1          out 21
 *   billing.ts → invoices.ts  invoiceTotal 10√2, Invoice √2; → money.ts formatCents 10;
 *   billing.ts → itself  taxFor 1; statementLine 0.1                              out 26.66
 *   money.ts references nothing of the repo: dangling.
 * A chat referencer's edges weigh ×50, its self-edges for unreferenced definitions stay 0.1.
 */
const root = copyFixture('chatFile');
const billing = join(root, 'src/billing.ts');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

describe('a chat file', () => {
  test('without it, the customers half leads', async () => {
    const ranked = await rankingOf(root);
    // routes.ts and billing.ts are referenced by no other file, so they rank last. customers.ts'
    // only out-edge is Customer's self-reference, so it keeps all of its rank,
    // and routes.ts sends it 17.3/47.4 more: Customer (0.64) is far ahead. Then sumCents and
    // LineItem tie (10/21 of invoices.ts' rank each; money.ts sorts after invoices.ts, so first
    // when descending), invoiceTotal and formatCents (10√2 and 10 of billing's 26.66), the three
    // 10/47.42 shares of routes.ts (getCustomer, saveCustomer, findCustomer), Invoice
    // (1/21 + √2/26.66), taxFor (1/26.66), statementLine and putCustomer (0.1 self-edges).
    expect(filePaths(ranked)).toEqual(['src/customers.ts', 'src/invoices.ts', 'src/money.ts', 'src/routes.ts', 'src/billing.ts']);
    expect(topDefinitions(ranked)).toEqual([
      'src/customers.ts Customer',
      'src/money.ts sumCents',
      'src/invoices.ts LineItem',
      'src/invoices.ts invoiceTotal',
      'src/money.ts formatCents',
      'src/routes.ts getCustomer',
      'src/customers.ts saveCustomer',
      'src/customers.ts findCustomer',
      'src/invoices.ts Invoice',
      'src/billing.ts taxFor',
      'src/billing.ts statementLine',
      'src/routes.ts putCustomer',
    ]);
    expect(scoreOf(ranked, 'src/customers.ts', 'Customer')).toBeCloseTo(0.6429, 4);
  });

  test('with it, what the chat file uses leads, and the chat file is no entry', async () => {
    const ranked = await rankingOf(root, ['-c', billing]);
    // billing.ts is the only personalized file (100/N), so every teleport and every dangling
    // share (money.ts') lands on it, and it sends 99.99% of its rank on through its ×50 edges:
    // invoiceTotal 707/1328 of it, formatCents 500/1328, Invoice 71/1328 plus 1/21 of
    // invoices.ts. The customers half is reachable from nothing that gets rank: ≈ 0.
    expect(filePaths(ranked)).toEqual(['src/invoices.ts', 'src/money.ts', 'src/customers.ts', 'src/routes.ts']);
    expect(topDefinitions(ranked, 5)).toEqual([
      'src/invoices.ts invoiceTotal',
      'src/money.ts sumCents',
      'src/invoices.ts LineItem',
      'src/money.ts formatCents',
      'src/invoices.ts Invoice',
    ]);
    expect(scoreOf(ranked, 'src/invoices.ts', 'invoiceTotal')).toBeCloseTo(0.2063, 4);
    expect(scoreOf(ranked, 'src/customers.ts', 'Customer')).toBeLessThan(1e-4);
    expect(ranked.files.flatMap((file) => file.definitions.map((definition) => definition.name))).not.toContain('taxFor');
  });

  test("×50 on the chat file's references, not on its unreferenced definitions' self-edges", async () => {
    // -m gives billing.ts the same personalization as -c, without the ×50. Both taxFor (its
    // self-reference) and statementLine (a 0.1 self-edge) get billing.ts' rank over the same
    // out-weight, so their ratio is the ratio of the two weights: 0.1/1 as a mentioned file,
    // 0.1/50 as a chat file. Elsewhere the ×50 scales all of billing.ts' edges alike and cancels
    // out, so the order is the same.
    const chat = await rankingOf(root, ['-c', billing]);
    const mentioned = await rankingOf(root, ['-m', billing]);
    const ratio = (ranked: typeof chat) => scoreOf(ranked, 'src/billing.ts', 'statementLine') / scoreOf(ranked, 'src/billing.ts', 'taxFor');
    expect(ratio(mentioned)).toBeCloseTo(0.1, 12);
    expect(ratio(chat)).toBeCloseTo(0.1 / 50, 12);
    expect(topDefinitions(mentioned, 5)).toEqual(topDefinitions(chat, 5));
    // Only the chat file is left out of the ranked files; a mentioned file stays.
    expect(filePaths(mentioned)).toContain('src/billing.ts');
  });

  test('the map at 100 tokens turns from customers to invoicing', async () => {
    const before = await mapWithin(encoding, root, 100, AIDER_STYLE);
    // Customer, sumCents, LineItem. Customer's interface starts at line 1, whose scope header
    // grep-ast never adds, so only its first line shows.
    expect(before.text).toBe(
      lines(
        '',
        'src/customers.ts:',
        '│export interface Customer {',
        '⋮',
        '',
        'src/invoices.ts:',
        '⋮',
        '│export interface LineItem {',
        '│  description: string;',
        '│  cents: number;',
        '⋮',
        '',
        'src/money.ts:',
        '⋮',
        '│export function sumCents(amounts: readonly number[]): number {',
        '│  return amounts.reduce((total, amount) => total + amount, 0);',
        '⋮',
      ),
    );
    const after = await mapWithin(encoding, root, 100, [...AIDER_STYLE, '-c', billing]);
    // invoiceTotal and sumCents; LineItem would take it past 100.
    expect(after.text).toBe(
      lines(
        '',
        'src/invoices.ts:',
        '⋮',
        '│export function invoiceTotal(invoice: Invoice): number {',
        '│  return sumCents(invoice.items.map((item) => item.cents));',
        '⋮',
        '',
        'src/money.ts:',
        '⋮',
        '│export function sumCents(amounts: readonly number[]): number {',
        '│  return amounts.reduce((total, amount) => total + amount, 0);',
        '⋮',
      ),
    );
  });

  test('a budget that holds everything still leaves the chat file out', async () => {
    const { text } = await mapWithin(encoding, root, 1024, [...AIDER_STYLE, '-c', billing]);
    expect(filesOf(text)).toEqual(['src/customers.ts', 'src/invoices.ts', 'src/money.ts', 'src/routes.ts']);
    expect(text).not.toContain('statementLine');
    const mentioned = await mapWithin(encoding, root, 1024, [...AIDER_STYLE, '-m', billing]);
    expect(filesOf(mentioned.text)).toContain('src/billing.ts');
  });
});
