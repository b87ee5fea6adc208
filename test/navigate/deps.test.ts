import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { DepsResult } from '../../dist/src/navigate/deps.js';
import { expectOneLineError, runCli } from '../support/cli.js';

/** `repomap deps` and `repomap refs` on the language fixtures, run as the built binary, with a tag store of their own per fixture. */
const fixture = (leaf: string) => fileURLToPath(new URL(`../../fixtures/languages/${leaf}`, import.meta.url));

function runner(leaf: string): (...args: string[]) => string[] {
  const cache = mkdtempSync(join(tmpdir(), `repomap-deps-${leaf}-`));
  return (...args) => [...args, '--root', fixture(leaf), '--cache-dir', join(cache, 'store')];
}

async function stdoutOf(args: string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('repomap deps and refs', () => {
  test('python: deps with each import line and the names crossing; refs to depth 2 with the path it was reached by', async () => {
    const python = runner('python');
    expect(await stdoutOf(python('deps', 'bookshelf/catalog.py'))).toBe(
      [
        'bookshelf/settings.py  ← bookshelf/catalog.py:6 .settings  names: DEFAULT_PAGE_SIZE, clamp_page_size',
        'bookshelf/models.py  ← bookshelf/catalog.py:5 .models  names: Book, Genre',
        '',
      ].join('\n'),
    );
    expect(await stdoutOf(python('refs', 'bookshelf/models.py', '--depth', '2'))).toBe(
      [
        // `names` adds what the importer references that the imported defines (can_borrow, late_fee).
        'bookshelf/lending.py:4 .models  names: Book, Loan, Member, can_borrow, late_fee',
        'bookshelf/catalog.py:5 .models  names: Book, Genre',
        'bookshelf/__init__.py:2 .catalog  names: Catalog  via bookshelf/catalog.py',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(await stdoutOf(python('refs', 'bookshelf/models.py', '--depth', '2', '--json'))) as DepsResult;
    expect(json.links[2]).toEqual({
      path: 'bookshelf/__init__.py',
      depth: 2,
      via: ['bookshelf/models.py', 'bookshelf/catalog.py'],
      imports: [{ line: 2, module: '.catalog', names: ['Catalog'] }],
      names: ['Catalog'],
    });
    expect(json).toMatchObject({ file: 'bookshelf/models.py', direction: 'importers', depth: 2, nameLinks: [] });
  });

  test('go: one import of a package links each of its files; --name-links lists the package neighbours apart', async () => {
    const go = runner('go');
    const json = JSON.parse(await stdoutOf(go('deps', 'cmd/restock/main.go', '--json'))) as DepsResult;
    expect(json).toEqual({
      file: 'cmd/restock/main.go',
      direction: 'imports',
      depth: 1,
      links: [
        {
          path: 'stock/store.go',
          depth: 1,
          via: ['cmd/restock/main.go'],
          imports: [{ line: 8, module: 'example.com/warehouse/stock', names: [] }],
          names: ['NewStore', 'Reserve', 'Restock'],
        },
        {
          path: 'stock/limits.go',
          depth: 1,
          via: ['cmd/restock/main.go'],
          imports: [{ line: 8, module: 'example.com/warehouse/stock', names: [] }],
          names: [],
        },
        {
          path: 'stock/policy.go',
          depth: 1,
          via: ['cmd/restock/main.go'],
          imports: [{ line: 8, module: 'example.com/warehouse/stock', names: [] }],
          names: ['RestockAll', 'Snapshot', 'Threshold'],
        },
      ],
      nameLinks: [],
    });
    expect(await stdoutOf(go('refs', 'stock/store.go', '--name-links'))).toBe(
      [
        'cmd/restock/main.go:8 example.com/warehouse/stock  names: NewStore, Reserve, Restock',
        'name-only links (no import):',
        'stock/policy.go  names: Available, Level, Restock, SKU, Store',
        'stock/store_test.go  names: NewStore, Reserve, Restock',
        // Every file of the package declares `stock`.
        'stock/limits.go  names: stock',
        '',
      ].join('\n'),
    );
  });

  test('rust: each path of a use tree is an entry with its line', async () => {
    expect(await stdoutOf(runner('rust')('deps', 'src/cart.rs'))).toBe(
      [
        'src/pricing.rs  ← src/cart.rs:4 crate::pricing::Discount, src/cart.rs:4 crate::pricing::Priced  names: Discount, Priced, apply, price_for, sku',
        'src/limits.rs  ← src/cart.rs:3 crate::limits::MAX_LINES, src/cart.rs:3 crate::limits::MAX_QUANTITY  names: MAX_LINES, MAX_QUANTITY',
        'src/lib.rs  ← src/cart.rs:5 crate::Cents, src/cart.rs:5 crate::ShopError  names: Cents, ShopError',
        '',
      ].join('\n'),
    );
  });

  test('typescript: refs of a module imported by two files', async () => {
    expect(await stdoutOf(runner('typescript')('refs', 'src/models.ts'))).toBe(
      ['src/repository.ts:1 ./models  names: Order, OrderId, Repository', 'src/service.ts:2 ./models  names: LineItem, Order, OrderStatus, save', ''].join(
        '\n',
      ),
    );
  });

  test('java: a class of the same package is no import (exit 2); a FILE outside the repository is exit 1', async () => {
    const java = runner('java');
    await expectOneLineError(
      java('refs', 'src/main/java/org/acme/tasks/Task.java'),
      2,
      'repomap: no file of the repository imports src/main/java/org/acme/tasks/Task.java (--name-links lists files that share names with it)',
    );
    await expectOneLineError(java('deps', '/etc/passwd'), 1, /^repomap: file '\/etc\/passwd' is outside the repository /);
    await expectOneLineError(java('deps'), 1, "repomap: deps needs a FILE (see 'repomap deps --help')");
  });
});
