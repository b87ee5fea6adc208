import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, lines, mapWithin } from '../support/mapFixture.js';

/**
 * The signatures style (the default) on a repo of one file per language, each holding what a
 * signature can span: decorators and annotations, parameters over several lines, a where clause,
 * a class head over three lines, an arrow function whose body starts on the next line, methods
 * in a class, impl, trait, module, namespace and object literal. Every definition is shown as its
 * head (from its first line to the last before its body) under the heads of the scopes whose body
 * encloses it; aider's style also shows the struct's fields, the bodies' first lines, a
 * dictionary's entries and a docstring.
 */
const root = copyFixture('signatures');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

/** The ranked entries, one per file and name: Invoice.java defines Invoice, Document and print twice each. */
const ENTRIES = 38;

describe('the signatures style', () => {
  test('every definition: its head, under the heads of its enclosing scopes', async () => {
    const { text, stderr } = await mapWithin(encoding, root, 4096);
    expect(stderr).toContain(`map of ${ENTRIES} entries, 611 tokens (budget 4096)`);
    expect(text).toBe(
      lines(
        '',
        'go/stock.go:',
        '│package stock',
        '⋮',
        '│var ErrShort = errors.New("not enough stock")',
        '⋮',
        // The struct's fields are not its head.
        '│type Store struct {',
        '⋮',
        '│func NewStore() *Store {',
        '⋮',
        '│func (s *Store) Take(',
        '│\tsku string,',
        '│\tquantity int,',
        '│) error {',
        '⋮',
        '',
        'java/shop/Invoice.java:',
        '⋮',
        '│public class Invoice',
        '│    extends Document',
        '│    implements Printable {',
        '⋮',
        '│    public Invoice(String customer) {',
        '⋮',
        '│    @Override',
        '│    public String print() {',
        '⋮',
        '│    public void addLine(String text) {',
        '⋮',
        '│interface Printable {',
        '│    String print();',
        '⋮',
        '│abstract class Document {',
        '⋮',
        '│    Document(String customer) {',
        '⋮',
        '',
        'py/orders.py:',
        '⋮',
        // A constant's first line only.
        '│DEFAULT_LIMITS = {',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class OrderLine:',
        '⋮',
        '│    def total(self, unit_price: int) -> int:',
        '⋮',
        '│class OrderBook:',
        '⋮',
        '│    def __init__(self) -> None:',
        '⋮',
        '│    @staticmethod',
        '│    def validate(line: OrderLine) -> bool:',
        '⋮',
        '│    def open_order(',
        '│        self,',
        '│        lines: list[OrderLine],',
        '│        note: str = "",',
        '│    ) -> int:',
        '⋮',
        '│    class Status:',
        '│        OPEN = "open"',
        '│        CLOSED = "closed"',
        '',
        'rs/ledger.rs:',
        '⋮',
        '│pub struct Cents(pub i64);',
        '⋮',
        '│pub trait Account {',
        '│    fn balance(&self) -> Cents;',
        '│    fn post(&mut self, amount: Cents);',
        '⋮',
        '│pub struct Ledger {',
        '⋮',
        // impl blocks define nothing, but their head says whose methods these are.
        '│impl Ledger {',
        '│    pub fn new() -> Self {',
        '⋮',
        '│    pub fn total<I>(&self, names: I) -> Cents',
        '│    where',
        '│        I: IntoIterator<Item = String>,',
        '⋮',
        '│pub mod audit {',
        '⋮',
        '│    pub fn check(ledger: &Ledger) -> bool {',
        '⋮',
        '',
        'web/cart.ts:',
        '│export interface CartItem {',
        '⋮',
        // The body on the next line is left out, not the line break before it.
        '│export const lineTotal = (item: CartItem, quantity: number): number =>',
        '⋮',
        '│export class Cart {',
        '⋮',
        '│  add(item: CartItem): void {',
        '⋮',
        '│  total(): number {',
        '⋮',
        '│export namespace Prices {',
        '│  export function format(cents: number): string {',
        '⋮',
        '',
        'web/handlers.js:',
        '⋮',
        // An object literal's first line heads its methods.
        '│module.exports = {',
        '⋮',
        '│  addToCart(cart, item) {',
        '⋮',
        '│  clearCart() {',
        '⋮',
      ),
    );
  });

  test("the same definitions take 841 tokens in aider's style; at 640, 35 entries fit against aider's 25", async () => {
    expect((await mapWithin(encoding, root, 4096, AIDER_STYLE)).stderr).toContain(`map of ${ENTRIES} entries, 841 tokens (budget 4096)`);
    // The packer stops once within 15% of the budget, so neither map is the fullest that fits.
    expect((await mapWithin(encoding, root, 640)).stderr).toContain('map of 35 entries, 557 tokens (budget 640)');
    expect((await mapWithin(encoding, root, 640, AIDER_STYLE)).stderr).toContain('map of 25 entries, 571 tokens (budget 640)');
  });
});
