import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareWithAider } from '../support/aiderReference.js';
import { definitionOf, extractFixture, fixtureTags, recordOf, textRecord } from '../support/fixtureTags.js';

const fixture = fileURLToPath(new URL('../../fixtures/languages/rust', import.meta.url));

describe('Rust tags', () => {
  test('the fixture yields exactly these tags', () => {
    // Hand-checked against the sources. Kinds: struct and union → class (aider's choice), enum →
    // enum, type alias and associated type → type, trait → interface, fn in an impl or a trait
    // (with or without a body) → method, any other fn (in inline modules too) → function, const
    // and static → constant. Of note: every type_identifier is a type reference, the name being
    // declared and generic parameters included (as aider's Go query has it); the trait and the
    // type of an impl are `implementation` references instead; `use` declarations name their
    // imported items as `import` references; paths in patterns (`ShopError::TooManyLines(n)`) and
    // the `HashMap` of `HashMap::new()` are no references; limits.rs references nothing, so every
    // identifier in it becomes a line −1 reference (aider's fallback).
    expect(fixtureTags(fixture)).toEqual([
      'src/cart.rs:9 def class LineItem',
      'src/cart.rs:15 def class Cart',
      'src/cart.rs:20 def method new',
      'src/cart.rs:25 def method add',
      'src/cart.rs:38 def method subtotal',
      'src/cart.rs:45 def method total_with',
      'src/cart.rs:51 def method default',
      'src/cart.rs:1 ref import HashMap',
      'src/cart.rs:3 ref import MAX_LINES',
      'src/cart.rs:3 ref import MAX_QUANTITY',
      'src/cart.rs:4 ref import Discount',
      'src/cart.rs:4 ref import Priced',
      'src/cart.rs:5 ref import Cents',
      'src/cart.rs:5 ref import ShopError',
      'src/cart.rs:9 ref type LineItem',
      'src/cart.rs:9 ref type P',
      'src/cart.rs:10 ref type P',
      'src/cart.rs:15 ref type Cart',
      'src/cart.rs:15 ref type P',
      'src/cart.rs:15 ref type Priced',
      'src/cart.rs:16 ref type HashMap',
      'src/cart.rs:16 ref type String',
      'src/cart.rs:16 ref type LineItem',
      'src/cart.rs:16 ref type P',
      'src/cart.rs:19 ref type P',
      'src/cart.rs:19 ref type Priced',
      'src/cart.rs:19 ref implementation Cart',
      'src/cart.rs:19 ref type P',
      'src/cart.rs:20 ref type Self',
      'src/cart.rs:21 ref type Cart',
      'src/cart.rs:21 ref call new',
      'src/cart.rs:25 ref type P',
      'src/cart.rs:25 ref type Result',
      'src/cart.rs:25 ref type ShopError',
      'src/cart.rs:26 ref call sku',
      'src/cart.rs:26 ref call to_owned',
      'src/cart.rs:27 ref call contains_key',
      'src/cart.rs:27 ref call len',
      'src/cart.rs:28 ref call Err',
      'src/cart.rs:28 ref call TooManyLines',
      'src/cart.rs:30 ref call entry',
      'src/cart.rs:30 ref call clone',
      'src/cart.rs:30 ref call or_insert',
      'src/cart.rs:30 ref type LineItem',
      'src/cart.rs:33 ref call Err',
      'src/cart.rs:33 ref type QuantityOutOfRange',
      'src/cart.rs:35 ref call Ok',
      'src/cart.rs:38 ref type Cents',
      'src/cart.rs:40 ref call values',
      'src/cart.rs:41 ref call map',
      'src/cart.rs:41 ref call price_for',
      'src/cart.rs:42 ref call sum',
      'src/cart.rs:42 ref type Cents',
      'src/cart.rs:45 ref type D',
      'src/cart.rs:45 ref type Discount',
      'src/cart.rs:45 ref type Sized',
      'src/cart.rs:45 ref type D',
      'src/cart.rs:45 ref type Cents',
      'src/cart.rs:46 ref call apply',
      'src/cart.rs:46 ref call subtotal',
      'src/cart.rs:50 ref type P',
      'src/cart.rs:50 ref type Priced',
      'src/cart.rs:50 ref implementation Default',
      'src/cart.rs:50 ref implementation Cart',
      'src/cart.rs:50 ref type P',
      'src/cart.rs:51 ref type Self',
      'src/cart.rs:52 ref call new',
      'src/lib.rs:5 def module cart',
      'src/lib.rs:6 def module limits',
      'src/lib.rs:7 def module pricing',
      'src/lib.rs:13 def type Cents',
      'src/lib.rs:17 def enum ShopError',
      'src/lib.rs:23 def method fmt',
      'src/lib.rs:37 def class TerminalPrice',
      'src/lib.rs:9 ref import Cart',
      'src/lib.rs:9 ref import LineItem',
      'src/lib.rs:10 ref import best_discount',
      'src/lib.rs:13 ref type Cents',
      'src/lib.rs:17 ref type ShopError',
      'src/lib.rs:19 ref type String',
      'src/lib.rs:22 ref implementation Display',
      'src/lib.rs:22 ref implementation ShopError',
      'src/lib.rs:23 ref type Formatter',
      'src/lib.rs:23 ref type Result',
      'src/lib.rs:25 ref macro write',
      'src/lib.rs:26 ref type QuantityOutOfRange',
      'src/lib.rs:27 ref macro write',
      'src/lib.rs:33 ref implementation Error',
      'src/lib.rs:33 ref implementation ShopError',
      'src/lib.rs:37 ref type TerminalPrice',
      'src/limits.rs:4 def constant MAX_LINES',
      'src/limits.rs:7 def constant MAX_QUANTITY',
      'src/limits.rs:9 def constant CURRENCY',
      'src/limits.rs:12 def function quantity_allowed',
      'src/limits.rs:-1 ref identifier MAX_LINES',
      'src/limits.rs:-1 ref identifier MAX_QUANTITY',
      'src/limits.rs:-1 ref identifier CURRENCY',
      'src/limits.rs:-1 ref identifier quantity_allowed',
      'src/limits.rs:-1 ref identifier quantity',
      'src/limits.rs:-1 ref identifier quantity',
      'src/limits.rs:-1 ref identifier quantity',
      'src/limits.rs:-1 ref identifier MAX_QUANTITY',
      'src/pricing.rs:4 def interface Priced',
      'src/pricing.rs:5 def method sku',
      'src/pricing.rs:6 def method unit_price',
      'src/pricing.rs:9 def method price_for',
      'src/pricing.rs:15 def interface Catalog',
      'src/pricing.rs:16 def type Product',
      'src/pricing.rs:18 def method find',
      'src/pricing.rs:22 def interface Discount',
      'src/pricing.rs:23 def method apply',
      'src/pricing.rs:26 def class PercentOff',
      'src/pricing.rs:29 def method apply',
      'src/pricing.rs:35 def macro euros',
      'src/pricing.rs:41 def module rules',
      'src/pricing.rs:45 def constant FREE_SHIPPING_FROM',
      'src/pricing.rs:46 def constant NO_DISCOUNT',
      'src/pricing.rs:49 def function best_discount',
      'src/pricing.rs:56 def module seasonal',
      'src/pricing.rs:57 def constant SUMMER_SALE_PERCENT',
      'src/pricing.rs:59 def function summer_sale',
      'src/pricing.rs:1 ref import Cents',
      'src/pricing.rs:4 ref type Priced',
      'src/pricing.rs:6 ref type Cents',
      'src/pricing.rs:9 ref type Cents',
      'src/pricing.rs:10 ref call unit_price',
      'src/pricing.rs:10 ref call from',
      'src/pricing.rs:15 ref type Catalog',
      'src/pricing.rs:16 ref type Product',
      'src/pricing.rs:16 ref type Priced',
      'src/pricing.rs:18 ref type Option',
      'src/pricing.rs:18 ref type Product',
      'src/pricing.rs:22 ref type Discount',
      'src/pricing.rs:23 ref type Cents',
      'src/pricing.rs:23 ref type Cents',
      'src/pricing.rs:26 ref type PercentOff',
      'src/pricing.rs:28 ref implementation Discount',
      'src/pricing.rs:28 ref implementation PercentOff',
      'src/pricing.rs:29 ref type Cents',
      'src/pricing.rs:29 ref type Cents',
      'src/pricing.rs:30 ref call from',
      'src/pricing.rs:42 ref import Discount',
      'src/pricing.rs:42 ref import PercentOff',
      'src/pricing.rs:43 ref import Cents',
      'src/pricing.rs:45 ref type Cents',
      'src/pricing.rs:45 ref macro euros',
      'src/pricing.rs:46 ref type PercentOff',
      'src/pricing.rs:46 ref call PercentOff',
      'src/pricing.rs:49 ref type Cents',
      'src/pricing.rs:49 ref type Box',
      'src/pricing.rs:49 ref type Discount',
      'src/pricing.rs:49 ref type Option',
      'src/pricing.rs:49 ref type Discount',
      'src/pricing.rs:51 ref call iter',
      'src/pricing.rs:52 ref call min_by_key',
      'src/pricing.rs:52 ref call apply',
      'src/pricing.rs:53 ref call map',
      'src/pricing.rs:53 ref call as_ref',
      'src/pricing.rs:59 ref type PercentOff',
      'src/pricing.rs:60 ref call PercentOff',
    ]);
  });

  const records = extractFixture(fixture);

  test('a generic method keeps its extent, its head as signature and its /// summary', () => {
    expect(definitionOf(recordOf(records, 'src/cart.rs'), 'add')).toMatchObject({
      kind: 'method',
      line: 25,
      endLine: 36,
      signature: 'pub fn add(&mut self, product: P, quantity: u32) -> Result<(), ShopError>',
      doc: 'Adds `quantity` units of a product, merging with its line if there is one.',
    });
    expect(definitionOf(recordOf(records, 'src/cart.rs'), 'Cart')).toMatchObject({
      kind: 'class',
      endLine: 17,
      signature: 'pub struct Cart<P: Priced>',
      doc: 'A cart of priced products, keyed by SKU.',
    });
  });

  test('bodiless items: a trait method signature, a type alias, a macro and an inline module', () => {
    const pricing = recordOf(records, 'src/pricing.rs');
    expect(definitionOf(pricing, 'find')).toMatchObject({
      kind: 'method',
      line: 18,
      endLine: 18,
      signature: 'fn find(&self, sku: &str) -> Option<&Self::Product>',
    });
    expect(definitionOf(recordOf(records, 'src/lib.rs'), 'Cents')).toMatchObject({
      kind: 'type',
      signature: 'pub type Cents = u64',
      doc: 'Money in the smallest currency unit.',
    });
    expect(definitionOf(pricing, 'euros')).toMatchObject({ kind: 'macro', endLine: 39, doc: 'Cents from a euro amount and its cents.' });
    expect(definitionOf(pricing, 'rules')).toMatchObject({ kind: 'module', line: 41, endLine: 63, signature: 'pub mod rules' });
  });

  test('a trait method and an impl method show their trait or impl header', () => {
    const pricing = recordOf(records, 'src/pricing.rs');
    expect(definitionOf(pricing, 'apply', { line: 23 }).scopeLines).toEqual([22, 23]);
    expect(definitionOf(pricing, 'apply', { line: 29 }).scopeLines).toEqual([28, 29, 30, 31]);
  });

  test('imports: each path of a use tree in full, `mod x;` as self::x, `extern crate`; once each', () => {
    expect(recordOf(records, 'src/cart.rs').imports.modules).toEqual([
      'std::collections::HashMap',
      'crate::limits::MAX_LINES',
      'crate::limits::MAX_QUANTITY',
      'crate::pricing::Discount',
      'crate::pricing::Priced',
      'crate::Cents',
      'crate::ShopError',
    ]);
    expect(recordOf(records, 'src/lib.rs').imports.modules).toEqual([
      'alloc',
      'self::cart',
      'self::limits',
      'self::pricing',
      'cart::Cart',
      'cart::LineItem',
      'pricing::rules::best_discount',
    ]);
    // `use super::{Discount, PercentOff}` inside `mod rules` names this file's own module.
    expect(recordOf(records, 'src/pricing.rs').imports.modules).toEqual(['crate::Cents', 'self::Discount', 'self::PercentOff']);
    // Every path of a use declaration on the declaration's first line; a path used twice keeps its first.
    expect(recordOf(records, 'src/cart.rs').imports.lines).toEqual([1, 3, 3, 4, 4, 5, 5]);
    expect(recordOf(records, 'src/lib.rs').imports.lines).toEqual([3, 5, 6, 7, 9, 9, 10]);
    expect(recordOf(records, 'src/pricing.rs').imports.lines).toEqual([1, 42, 42]);
  });

  test('use trees flatten to one path per leaf: lists, self, globs, renames, leading ::, comments', () => {
    const text = [
      'use a::{self, b::{C, d as e}, *};',
      'use ::ext::x;',
      'use {f, g::h};',
      'use crate :: /* why */ i;',
      'mod outer {',
      '    mod inner { use super::super::super::j; use self::k; }',
      '    fn f() { use super::l; }',
      '}',
      'mod m { }',
    ].join('\n');
    const record = textRecord('src/x.rs', 'rust', text);
    expect(record.imports.modules).toEqual([
      'a',
      'a::b::C',
      'a::b::d',
      'a::*',
      '::ext::x',
      'f',
      'g::h',
      'crate::i',
      'super::j',
      'self::outer::inner::k',
      'self::l',
    ]);
    expect(record.imports.lines).toEqual([1, 1, 1, 1, 2, 3, 3, 4, 6, 6, 7]);
  });

  test('a /// comment above attributes documents the item', () => {
    expect(definitionOf(recordOf(records, 'src/cart.rs'), 'LineItem').doc).toBe('One product line of a cart.');
    expect(definitionOf(recordOf(records, 'src/lib.rs'), 'ShopError').doc).toBe('Why the engine refused a change to a cart.');
    expect(definitionOf(recordOf(records, 'src/lib.rs'), 'TerminalPrice')).toMatchObject({
      signature: 'pub union TerminalPrice',
      doc: "A price as the checkout terminal's C library reads it.",
    });
  });

  // tree-sitter-rust's doc comments end on the next row, after their newline, so a `//!` line
  // (about the enclosing module) a blank line above an item's `///` block reads as adjacent.
  test('a //! module comment does not join the first item doc comment', () => {
    expect(definitionOf(recordOf(records, 'src/limits.rs'), 'MAX_LINES').doc).toBe('Most distinct products one cart may hold.');
  });
});

describe('Rust tags against aider', () => {
  // aider tags a fn in an impl both as method and as function; we keep one kind, so only
  // names and lines are compared.
  test('every aider tag of the shop repo .rs files is among ours', () => {
    const { expected, missing } = compareWithAider(['.rs']);
    expect(expected.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
