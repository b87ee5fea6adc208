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

  test('the compact format: each definition as kind name(params)->return, parameters and return read from its head in every language', async () => {
    const { text } = await mapWithin(encoding, root, 4096, ['--format', 'compact']);
    expect(text).toBe(
      lines(
        '# compact map: path ←N (N files import it) → its imports in this map +M others; symbols: kind name(params)->return :line, members indented',
        '# kinds: c=class i=interface d=module f=function m=method n=constructor k=constant v=variable',
        'go/stock.go ←0',
        ' d stock :1',
        ' v ErrShort :8',
        ' c Store :10',
        ' f NewStore()->*Store :15',
        // Go: the receiver left out; parameters over several lines joined, the trailing comma dropped.
        ' m Take(sku string, quantity int)->error :19',
        'java/shop/Invoice.java ←0',
        ' c Invoice :6',
        '  n Invoice(String customer) :11',
        // Java: the return type is the word before the name, modifiers and annotations left aside.
        '  m print()->String :17',
        '  m addLine(String text)->void :21',
        ' i Printable :26',
        '  m print()->String :27',
        ' c Document :30',
        '  n Document(String customer) :33',
        'py/orders.py ←0',
        ' k DEFAULT_LIMITS :5',
        ' c OrderLine :12',
        '  m total(unit_price: int)->int :18',
        ' c OrderBook :22',
        // Python: `self` left out; a nested class under its class, its constants under it.
        '  m __init__()->None :25',
        '  m validate(line: OrderLine)->bool :30',
        '  m open_order(lines: list[OrderLine], note: str = "")->int :33',
        '  c Status :43',
        '   k OPEN :44',
        '   k CLOSED :45',
        'rs/ledger.rs ←0',
        ' c Cents :7',
        ' i Account :9',
        // Rust: `&self` left out; impl blocks define nothing, so their methods stand at the top; total's where clause cut.
        '  m balance()->Cents :10',
        '  m post(amount: Cents) :11',
        ' c Ledger :14',
        ' m new()->Self :19',
        ' m total(names: I)->Cents :23',
        ' d audit :35',
        '  f check(ledger: &Ledger)->bool :38',
        'web/cart.ts ←1',
        ' i CartItem :1',
        // TypeScript: an arrow function's parameters after `=`, its return type before `=>`.
        ' f lineTotal(item: CartItem, quantity: number)->number :6',
        ' c Cart :9',
        '  m add(item: CartItem)->void :12',
        '  m total()->number :16',
        ' d Prices :21',
        '  f format(cents: number)->string :22',
        'web/handlers.js ←0 → web/cart.ts',
        ' m addToCart(cart, item) :6',
        ' m clearCart() :11',
      ),
    );
  });
});
