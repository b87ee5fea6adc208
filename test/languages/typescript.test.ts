import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareWithAider } from '../support/aiderReference.js';
import { definitionOf, extractFixture, fixtureTags, recordOf, textRecord } from '../support/fixtureTags.js';

const fixture = fileURLToPath(new URL('../../fixtures/languages/typescript', import.meta.url));

describe('TypeScript tags (.ts)', () => {
  test('the fixture yields exactly these tags', () => {
    // Hand-checked against the sources. Of note: type references come from every place a type
    // is written (annotations, generics, unions, arrays, `Order['status']`, constraints), but
    // declared names (type parameters, the interface or alias being defined) are not
    // references; `implements`/`extends` targets are `implementation` references; enum
    // members and namespace members reached through `Pricing.x` are not references;
    // currency.ts references nothing, so it falls back to its identifiers at line −1.
    expect(fixtureTags(fixture)).toEqual([
      'src/currency.ts:1 def enum Currency',
      'src/currency.ts:6 def interface Money',
      'src/currency.ts:11 def function centsToUnits',
      'src/currency.ts:-1 ref identifier Currency',
      'src/currency.ts:-1 ref identifier EUR',
      'src/currency.ts:-1 ref identifier USD',
      'src/currency.ts:-1 ref identifier Money',
      'src/currency.ts:-1 ref identifier amount',
      'src/currency.ts:-1 ref identifier currency',
      'src/currency.ts:-1 ref identifier centsToUnits',
      'src/currency.ts:-1 ref identifier cents',
      'src/currency.ts:-1 ref identifier cents',
      'src/models.ts:1 def enum OrderStatus',
      'src/models.ts:7 def type OrderId',
      'src/models.ts:9 def interface LineItem',
      'src/models.ts:16 def interface Order',
      'src/models.ts:23 def interface Repository',
      'src/models.ts:24 def method find',
      'src/models.ts:25 def method save',
      'src/models.ts:28 def type OrderEvent',
      'src/models.ts:17 ref type OrderId',
      'src/models.ts:18 ref type OrderStatus',
      'src/models.ts:19 ref type LineItem',
      'src/models.ts:20 ref type Date',
      'src/models.ts:24 ref type Promise',
      'src/models.ts:24 ref type T',
      'src/models.ts:25 ref type T',
      'src/models.ts:25 ref type Promise',
      'src/models.ts:28 ref type Order',
      'src/models.ts:28 ref type OrderId',
      'src/repository.ts:7 def class BaseRepository',
      'src/repository.ts:10 def method find',
      'src/repository.ts:12 def method write',
      'src/repository.ts:14 def method save',
      'src/repository.ts:20 def class InMemoryOrders',
      'src/repository.ts:23 def method find',
      'src/repository.ts:27 def method write',
      'src/repository.ts:31 def method byStatus',
      'src/repository.ts:7 ref implementation Repository',
      'src/repository.ts:7 ref type T',
      'src/repository.ts:8 ref new EventEmitter',
      'src/repository.ts:10 ref type Promise',
      'src/repository.ts:10 ref type T',
      'src/repository.ts:12 ref type T',
      'src/repository.ts:12 ref type Promise',
      'src/repository.ts:14 ref type T',
      'src/repository.ts:14 ref type Promise',
      'src/repository.ts:15 ref call write',
      'src/repository.ts:16 ref call emit',
      'src/repository.ts:20 ref implementation BaseRepository',
      'src/repository.ts:20 ref type Order',
      'src/repository.ts:21 ref new Map',
      'src/repository.ts:21 ref type OrderId',
      'src/repository.ts:21 ref type Order',
      'src/repository.ts:23 ref type OrderId',
      'src/repository.ts:23 ref type Promise',
      'src/repository.ts:23 ref type Order',
      'src/repository.ts:24 ref call get',
      'src/repository.ts:27 ref type Order',
      'src/repository.ts:27 ref type Promise',
      'src/repository.ts:28 ref call set',
      'src/repository.ts:28 ref call structuredClone',
      'src/repository.ts:31 ref type Order',
      'src/repository.ts:31 ref type Order',
      'src/repository.ts:32 ref call values',
      'src/repository.ts:32 ref call filter',
      'src/service.ts:5 def type Constructor',
      'src/service.ts:9 def function Injectable',
      'src/service.ts:16 def function Logged',
      'src/service.ts:18 def function value',
      'src/service.ts:24 def module Pricing',
      'src/service.ts:25 def constant VAT_RATE',
      'src/service.ts:27 def function subtotal',
      'src/service.ts:31 def module Discounts',
      'src/service.ts:32 def function bulk',
      'src/service.ts:35 def class Quote',
      'src/service.ts:36 def constructor constructor',
      'src/service.ts:38 def method gross',
      'src/service.ts:46 def class OrderService',
      'src/service.ts:47 def constructor constructor',
      'src/service.ts:51 def method place',
      'src/service.ts:57 def method total',
      'src/service.ts:5 ref type T',
      'src/service.ts:7 ref new Map',
      'src/service.ts:7 ref type Constructor',
      'src/service.ts:10 ref type Constructor',
      'src/service.ts:10 ref type C',
      'src/service.ts:10 ref type C',
      'src/service.ts:11 ref call set',
      'src/service.ts:16 ref type PropertyDescriptor',
      'src/service.ts:19 ref call log',
      'src/service.ts:20 ref call apply',
      'src/service.ts:27 ref type LineItem',
      'src/service.ts:28 ref call reduce',
      'src/service.ts:45 ref call Injectable',
      'src/service.ts:47 ref type InMemoryOrders',
      'src/service.ts:50 ref call Logged',
      'src/service.ts:51 ref type LineItem',
      'src/service.ts:51 ref type Promise',
      'src/service.ts:51 ref type Order',
      'src/service.ts:52 ref type Order',
      'src/service.ts:52 ref call randomUUID',
      'src/service.ts:52 ref new Date',
      'src/service.ts:53 ref call save',
      'src/service.ts:57 ref type Order',
      'src/service.ts:58 ref call subtotal',
      'src/service.ts:59 ref new Quote',
      'src/service.ts:59 ref call bulk',
      'src/service.ts:59 ref call gross',
    ]);
  });

  const records = extractFixture(fixture);

  test('an abstract generic class keeps its extent, its head as signature and its JSDoc summary', () => {
    expect(definitionOf(recordOf(records, 'src/repository.ts'), 'BaseRepository')).toMatchObject({
      kind: 'class',
      line: 7,
      endLine: 18,
      signature: 'abstract class BaseRepository<T extends { id: string }> implements Repository<T>',
      doc: 'Shared bookkeeping for repositories: subclasses only store and load.',
    });
    expect(definitionOf(recordOf(records, 'src/models.ts'), 'Order')).toMatchObject({
      kind: 'interface',
      endLine: 21,
      signature: 'interface Order',
      doc: "A customer's order as the API returns it.",
    });
  });

  test('signatures of bodiless members: abstract methods, interface methods, a class-field arrow', () => {
    const repository = recordOf(records, 'src/repository.ts');
    expect(definitionOf(repository, 'write').signature).toBe('protected abstract write(entity: T): Promise<void>');
    expect(definitionOf(repository, 'byStatus')).toMatchObject({
      kind: 'method',
      line: 31,
      endLine: 32,
      signature: "byStatus = (status: Order['status']): Order[] =>",
    });
    expect(definitionOf(recordOf(records, 'src/models.ts'), 'find')).toMatchObject({
      kind: 'method',
      signature: 'find(id: string): Promise<T | undefined>',
    });
  });

  test('a method in a class in a namespace shows both enclosing headers', () => {
    const service = recordOf(records, 'src/service.ts');
    expect(definitionOf(service, 'Pricing')).toMatchObject({ kind: 'module', line: 24, endLine: 42, signature: 'namespace Pricing' });
    expect(definitionOf(service, 'gross').scopeLines).toEqual([24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 35, 36, 37, 38, 39, 40]);
  });

  test('imports: ESM sources, type-only imports and `import x = require()`', () => {
    expect(recordOf(records, 'src/repository.ts').imports.modules).toEqual(['./models', 'events']);
    expect(recordOf(records, 'src/service.ts').imports.modules).toEqual(['node:crypto', './models', './repository']);
    expect(recordOf(records, 'src/service.ts').imports.lines).toEqual([1, 2, 3]);
  });

  test('imports: type-only names are taken like the others', () => {
    const text = ["import type { Options } from './options';", "import { type Cart, connect } from './shop';", "export type { Line } from './line';", ''].join(
      '\n',
    );
    const record = textRecord('src/i.ts', 'typescript', text);
    expect(record.imports).toEqual({ modules: ['./options', './shop', './line'], names: [['Options'], ['Cart', 'connect'], ['Line']], lines: [1, 2, 3] });
  });

  test('a file with definitions but no references falls back to its identifiers, at line -1', () => {
    const { names, lines } = recordOf(records, 'src/currency.ts').references;
    expect(names).toContain('Money');
    expect(new Set(lines)).toEqual(new Set([-1]));
  });

  // A decorator sits between the comment and the declaration node: inside `export` for a class,
  // as a class-body sibling for a method.
  test('a JSDoc comment above decorators documents the decorated class and method', () => {
    const service = recordOf(records, 'src/service.ts');
    expect(definitionOf(service, 'OrderService').doc).toBe('Places orders and prices them, VAT included.');
    expect(definitionOf(service, 'place').doc).toBe('Stores a new pending order for the items.');
  });
});

describe('TypeScript tags against aider', () => {
  // aider's TypeScript query finds no calls and only annotation types, so ours must be a superset.
  test('every aider tag of the shop repo .ts files is among ours', () => {
    const { expected, missing } = compareWithAider(['.ts']);
    expect(expected.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
