import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareWithAider } from '../support/aiderReference.js';
import { definitionOf, extractFixture, fixtureTags, recordOf } from '../support/fixtureTags.js';

const fixture = fileURLToPath(new URL('../../fixtures/languages/go', import.meta.url));

describe('Go tags', () => {
  test('the fixture yields exactly these tags', () => {
    // Hand-checked against the sources. Kinds: package clause → module, func → function, func
    // with a receiver (value or pointer) and interface method → method, struct type → class
    // (aider's choice), interface type → interface, any other type → type, const → constant,
    // package-level var → variable (a var inside a function is no definition). Of note: every
    // type_identifier is a type reference, the name being declared, builtins and type
    // parameters included, as in aider's query; package names (`stock.`, `errors.`) are no
    // references; limits.go references nothing, so every name in it becomes a line −1
    // reference (aider's fallback).
    expect(fixtureTags(fixture)).toEqual([
      'cmd/restock/main.go:2 def module main',
      'cmd/restock/main.go:11 def function main',
      'cmd/restock/main.go:12 ref call NewStore',
      'cmd/restock/main.go:13 ref call Restock',
      'cmd/restock/main.go:14 ref call Reserve',
      'cmd/restock/main.go:15 ref call Printf',
      'cmd/restock/main.go:17 ref call RestockAll',
      'cmd/restock/main.go:17 ref type Threshold',
      'cmd/restock/main.go:18 ref call Println',
      'cmd/restock/main.go:18 ref call Snapshot',
      'stock/limits.go:1 def module stock',
      'stock/limits.go:5 def constant MaxLinesPerOrder',
      'stock/limits.go:6 def constant MaxQuantity',
      'stock/limits.go:11 def constant ZoneInbound',
      'stock/limits.go:12 def constant ZoneShelves',
      'stock/limits.go:13 def constant ZoneOutbound',
      'stock/limits.go:16 def variable defaultWarehouse',
      'stock/limits.go:-1 ref identifier stock',
      'stock/limits.go:-1 ref identifier MaxLinesPerOrder',
      'stock/limits.go:-1 ref identifier MaxQuantity',
      'stock/limits.go:-1 ref identifier ZoneInbound',
      'stock/limits.go:-1 ref identifier ZoneShelves',
      'stock/limits.go:-1 ref identifier ZoneOutbound',
      'stock/limits.go:-1 ref identifier defaultWarehouse',
      'stock/policy.go:1 def module stock',
      'stock/policy.go:6 def interface ReorderPolicy',
      'stock/policy.go:7 def method ReorderQuantity',
      'stock/policy.go:11 def class Threshold',
      'stock/policy.go:16 def variable DefaultPolicy',
      'stock/policy.go:18 def method ReorderQuantity',
      'stock/policy.go:26 def method Snapshot',
      'stock/policy.go:37 def function SortedKeys',
      'stock/policy.go:47 def function RestockAll',
      'stock/policy.go:6 ref type ReorderPolicy',
      'stock/policy.go:7 ref type SKU',
      'stock/policy.go:7 ref type Level',
      'stock/policy.go:7 ref type int',
      'stock/policy.go:11 ref type Threshold',
      'stock/policy.go:12 ref type int',
      'stock/policy.go:16 ref type ReorderPolicy',
      'stock/policy.go:16 ref type Threshold',
      'stock/policy.go:18 ref type Threshold',
      'stock/policy.go:18 ref type SKU',
      'stock/policy.go:18 ref type Level',
      'stock/policy.go:18 ref type int',
      'stock/policy.go:19 ref call Available',
      'stock/policy.go:22 ref call Available',
      'stock/policy.go:26 ref type Store',
      'stock/policy.go:26 ref type SKU',
      'stock/policy.go:26 ref type Level',
      'stock/policy.go:27 ref call Lock',
      'stock/policy.go:28 ref call Unlock',
      'stock/policy.go:29 ref call make',
      'stock/policy.go:29 ref type SKU',
      'stock/policy.go:29 ref type Level',
      'stock/policy.go:29 ref call len',
      'stock/policy.go:37 ref type string',
      'stock/policy.go:37 ref type any',
      'stock/policy.go:37 ref type K',
      'stock/policy.go:37 ref type V',
      'stock/policy.go:37 ref type K',
      'stock/policy.go:38 ref call make',
      'stock/policy.go:38 ref type K',
      'stock/policy.go:38 ref call len',
      'stock/policy.go:40 ref call append',
      'stock/policy.go:42 ref call Slice',
      'stock/policy.go:42 ref type int',
      'stock/policy.go:42 ref type bool',
      'stock/policy.go:47 ref type Store',
      'stock/policy.go:47 ref type ReorderPolicy',
      'stock/policy.go:47 ref type int',
      'stock/policy.go:48 ref type int',
      'stock/policy.go:49 ref call Snapshot',
      'stock/policy.go:50 ref call SortedKeys',
      'stock/policy.go:51 ref call ReorderQuantity',
      'stock/policy.go:52 ref call Restock',
      'stock/store.go:2 def module stock',
      'stock/store.go:12 def variable ErrOutOfStock',
      'stock/store.go:13 def variable ErrUnknownSKU',
      'stock/store.go:17 def type SKU',
      'stock/store.go:20 def class Level',
      'stock/store.go:26 def class Store',
      'stock/store.go:32 def function NewStore',
      'stock/store.go:37 def method Available',
      'stock/store.go:42 def method Reserve',
      'stock/store.go:58 def method Restock',
      'stock/store.go:12 ref call New',
      'stock/store.go:13 ref call New',
      'stock/store.go:17 ref type SKU',
      'stock/store.go:17 ref type string',
      'stock/store.go:20 ref type Level',
      'stock/store.go:21 ref type int',
      'stock/store.go:22 ref type int',
      'stock/store.go:26 ref type Store',
      'stock/store.go:27 ref type Mutex',
      'stock/store.go:28 ref type SKU',
      'stock/store.go:28 ref type Level',
      'stock/store.go:32 ref type Store',
      'stock/store.go:33 ref type Store',
      'stock/store.go:33 ref call make',
      'stock/store.go:33 ref type SKU',
      'stock/store.go:33 ref type Level',
      'stock/store.go:37 ref type Level',
      'stock/store.go:37 ref type int',
      'stock/store.go:42 ref type Store',
      'stock/store.go:42 ref type SKU',
      'stock/store.go:42 ref type int',
      'stock/store.go:42 ref type error',
      'stock/store.go:43 ref call Lock',
      'stock/store.go:44 ref call Unlock',
      'stock/store.go:49 ref call Available',
      'stock/store.go:50 ref call Errorf',
      'stock/store.go:58 ref type Store',
      'stock/store.go:58 ref type SKU',
      'stock/store.go:58 ref type int',
      'stock/store.go:59 ref call Lock',
      'stock/store.go:60 ref call Unlock',
      'stock/store_test.go:1 def module stock',
      'stock/store_test.go:8 def function TestReserveBeyondStock',
      'stock/store_test.go:8 ref type T',
      'stock/store_test.go:9 ref call NewStore',
      'stock/store_test.go:10 ref call Restock',
      'stock/store_test.go:11 ref call Reserve',
      'stock/store_test.go:11 ref call Is',
      'stock/store_test.go:12 ref call Fatalf',
    ]);
  });

  const records = extractFixture(fixture);

  test('methods with pointer and value receivers keep their extent, head and // summary', () => {
    const store = recordOf(records, 'stock/store.go');
    expect(definitionOf(store, 'Reserve')).toMatchObject({
      kind: 'method',
      line: 42,
      endLine: 55,
      signature: 'func (s *Store) Reserve(sku SKU, quantity int) error',
      doc: 'Reserve sets quantity units of sku aside for an order.',
    });
    expect(definitionOf(store, 'Available')).toMatchObject({
      kind: 'method',
      endLine: 39,
      signature: 'func (l Level) Available() int',
      doc: 'Available is what can still be reserved.',
    });
    expect(definitionOf(recordOf(records, 'stock/policy.go'), 'SortedKeys')).toMatchObject({
      kind: 'function',
      endLine: 44,
      signature: 'func SortedKeys[K ~string, V any](m map[K]V) []K',
    });
  });

  test('type declarations: the doc above `type`, the extent of the spec', () => {
    const store = recordOf(records, 'stock/store.go');
    expect(definitionOf(store, 'Store')).toMatchObject({ kind: 'class', line: 26, endLine: 29, doc: 'Store holds stock levels behind a mutex.' });
    expect(definitionOf(store, 'SKU')).toMatchObject({ kind: 'type', endLine: 17, doc: 'SKU identifies a product.' });
    expect(definitionOf(recordOf(records, 'stock/policy.go'), 'ReorderPolicy')).toMatchObject({ kind: 'interface', endLine: 8 });
  });

  test('a package doc comment, and grouped vars each with their own line and doc', () => {
    const store = recordOf(records, 'stock/store.go');
    expect(definitionOf(store, 'stock')).toMatchObject({ kind: 'module', line: 2, doc: 'Package stock keeps the stock levels of a warehouse.' });
    expect(definitionOf(store, 'ErrOutOfStock')).toMatchObject({
      kind: 'variable',
      line: 12,
      endLine: 12,
      signature: 'ErrOutOfStock = errors.New("out of stock")',
      doc: 'ErrOutOfStock is returned when a reservation exceeds what is available.',
    });
    expect(definitionOf(store, 'ErrUnknownSKU')).toMatchObject({ line: 13, endLine: 13, doc: '' });
  });

  test('an interface method shows its interface header; a method its own head', () => {
    const policy = recordOf(records, 'stock/policy.go');
    expect(definitionOf(policy, 'ReorderQuantity', { line: 7 }).scopeLines).toEqual([6, 7]);
    expect(definitionOf(recordOf(records, 'stock/store.go'), 'Restock').scopeLines).toEqual([58, 59, 60, 61, 62, 63]);
  });

  test('imports: the paths of single and grouped import specs, quotes stripped', () => {
    expect(recordOf(records, 'stock/store.go').imports.modules).toEqual(['errors', 'fmt', 'sync']);
    expect(recordOf(records, 'stock/policy.go').imports.modules).toEqual(['sort']);
    expect(recordOf(records, 'cmd/restock/main.go').imports.modules).toEqual(['fmt', 'log', 'example.com/warehouse/stock']);
    // Each spec of a grouped import on its own line.
    expect(recordOf(records, 'cmd/restock/main.go').imports.lines).toEqual([5, 6, 8]);
    expect(recordOf(records, 'stock/policy.go').imports.lines).toEqual([3]);
  });
});

describe('Go tags against aider', () => {
  // aider tags a struct or interface type both as type and as class or interface; we keep one
  // kind, so only names and lines are compared.
  test('every aider tag of the shop repo .go files is among ours', () => {
    const { expected, missing } = compareWithAider(['.go']);
    expect(expected.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
