import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FindResult } from '../../dist/src/navigate/find.js';
import { expectOneLineError, runCli } from '../support/cli.js';

/** `repomap find` on the language fixtures, run as the built binary, with a tag store of its own per fixture. */
const fixture = (leaf: string) => fileURLToPath(new URL(`../../fixtures/languages/${leaf}`, import.meta.url));

function finder(leaf: string): (...args: string[]) => string[] {
  const cache = mkdtempSync(join(tmpdir(), `repomap-find-${leaf}-`));
  return (...args) => ['find', ...args, '--root', fixture(leaf), '--cache-dir', join(cache, 'store')];
}

async function stdoutOf(args: string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('repomap find', () => {
  const python = finder('python');

  test('python: the definitions, then the references, by file rank; text and JSON', async () => {
    expect(await stdoutOf(python('Catalog'))).toBe(
      [
        'bookshelf/catalog.py:41: def class: class Catalog(Repository[Book]):',
        'bookshelf/lending.py:12: ref type:     def __init__(self, books: catalog.Catalog):',
        'bookshelf/__init__.py:2: ref import: from .catalog import Catalog',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(await stdoutOf(python('Book', '--kind', 'def', '--json'))) as FindResult;
    expect(json).toEqual({
      query: 'Book',
      name: 'Book',
      qualifier: [],
      definitions: [{ path: 'bookshelf/models.py', line: 18, role: 'def', kind: 'class', scope: [], text: 'class Book:', context: [] }],
      references: [],
      totals: { definitions: 1, references: 0 },
      omitted: 0,
      closest: [],
    });
  });

  test('python: a qualified name narrows to its class; --context shows lines around, grep-style', async () => {
    expect(await stdoutOf(python('Catalog.search', '-C', '1'))).toBe(
      [
        'bookshelf/catalog.py-42-     @logged',
        'bookshelf/catalog.py:43: def method:     def search(self, text: str, page_size: int = DEFAULT_PAGE_SIZE) -> list[Book]:',
        'bookshelf/catalog.py-44-         size = clamp_page_size(page_size)',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(await stdoutOf(python('Catalog.search', '--json'))) as FindResult;
    expect(json.definitions.map(({ path, line, scope }) => ({ path, line, scope }))).toEqual([{ path: 'bookshelf/catalog.py', line: 43, scope: ['Catalog'] }]);
    expect(json.qualifier).toEqual(['Catalog']);
  });

  test('python: --in keeps results under a path; --limit cuts and says how many more', async () => {
    expect(await stdoutOf(python('Book', '--in', 'bookshelf/lending.py', '--limit', '1'))).toBe(
      ['bookshelf/lending.py:4: ref import: from .models import Book, Loan, Member', '… 1 more (raise --limit)', ''].join('\n'),
    );
    const json = JSON.parse(await stdoutOf(python('Book', '--in', 'bookshelf/lending.py', '--limit', '1', '--json'))) as FindResult;
    expect(json).toMatchObject({ totals: { definitions: 0, references: 2 }, omitted: 1 });
  });

  test('nothing found: exit 2, one line with the closest defined names; a path outside: exit 1', async () => {
    await expectOneLineError(python('Bok'), 2, "repomap: no definition or reference of 'Bok'; closest defined names: Book");
    await expectOneLineError(python('Shelf.add'), 2, "repomap: no definition or reference of 'Shelf.add'; closest defined names: Repository.add");
    await expectOneLineError(python('Book', '--in', '/etc'), 1, /^repomap: --in '\/etc' is outside the repository /);
    await expectOneLineError(python('a..b'), 1, "repomap: 'a..b' is not a name or a qualified name (Class.method, pkg.Func, mod::Type)");
    // JSON still prints the result, closest names included, for a program to read.
    const result = await runCli([...python('Bok', '--json')]);
    expect(result.code).toBe(2);
    expect((JSON.parse(result.stdout) as FindResult).closest).toEqual(['Book']);
  });

  test('go: Type.Method by its receiver; pkg.Func by its folder, references in files importing it or in its package', async () => {
    const go = finder('go');
    expect(await stdoutOf(go('Store.Reserve'))).toBe(
      [
        'stock/store.go:42: def method: func (s *Store) Reserve(sku SKU, quantity int) error {',
        'cmd/restock/main.go:14: ref call: \tif err := store.Reserve("apple", 20); err != nil {',
        // In Store's package: no import needed.
        'stock/store_test.go:11: ref call: \tif err := s.Reserve("pear", 4); !errors.Is(err, ErrOutOfStock) {',
        '',
      ].join('\n'),
    );
    expect(await stdoutOf(go('stock.NewStore', '--kind', 'ref'))).toBe(
      ['cmd/restock/main.go:12: ref call: \tstore := stock.NewStore()', 'stock/store_test.go:9: ref call: \ts := NewStore()', ''].join('\n'),
    );
  });

  test('rust: Type::method by its impl header; a path through another type is no match', async () => {
    // `HashMap::new()` on line 21 of the file that defines Cart is left out; `Self::new()` stays.
    expect(await stdoutOf(finder('rust')('Cart::new'))).toBe(
      ['src/cart.rs:20: def method:     pub fn new() -> Self {', 'src/cart.rs:52: ref call:         Self::new()', ''].join('\n'),
    );
  });

  test('java: Class.method; a reference in the same package needs no import', async () => {
    expect(await stdoutOf(finder('java')('Task.isOverdue'))).toBe(
      [
        'src/main/java/org/acme/tasks/Task.java:26: def method:     public boolean isOverdue(LocalDate today) {',
        'src/main/java/org/acme/tasks/InMemoryTaskRepository.java:43: ref call:             .filter(task -> task.isOverdue(today))',
        '',
      ].join('\n'),
    );
  });
});
