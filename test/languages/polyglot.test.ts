import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { cliTags, indexJson } from '../support/cli.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

/** A copy, so the store the CLI creates never lands in the fixture. */
function copyOfFixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-polyglot-'));
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

describe('a polyglot repository through the whole pipeline (CLI, worker pool, store)', () => {
  const root = copyOfFixture();

  test('index summary', async () => {
    expect(await indexJson(root)).toMatchObject({
      files: 8,
      parsed: 7,
      reused: 0,
      removed: 0,
      skipped: { 'no-grammar': 1 },
      defs: 25,
      refs: 64,
    });
  });

  test('repomap tags prints exactly these tags', async () => {
    expect(await cliTags(root)).toEqual([
      'api/server.py:4 def constant DEFAULT_PAGE_SIZE',
      'api/server.py:7 def class BookService',
      'api/server.py:10 def method __init__',
      'api/server.py:13 def method list_books',
      'api/server.py:17 def method describe',
      'api/server.py:21 def function price_with_tax',
      'api/server.py:2 ref import catalog_client',
      'api/server.py:2 ref import CatalogClient',
      'api/server.py:10 ref type CatalogClient',
      'api/server.py:13 ref type int',
      'api/server.py:14 ref call find_books',
      'api/server.py:15 ref call describe',
      'api/server.py:18 ref call price_with_tax',
      'api/server.py:21 ref type int',
      'api/server.py:21 ref type int',
      'api/server.py:22 ref call round',
      'catalog/catalog.go:1 def module catalog',
      'catalog/catalog.go:6 def class Book',
      'catalog/catalog.go:12 def class Catalog',
      'catalog/catalog.go:16 def function NewCatalog',
      'catalog/catalog.go:21 def method FindBooks',
      'catalog/catalog.go:6 ref type Book',
      'catalog/catalog.go:7 ref type string',
      'catalog/catalog.go:8 ref type int64',
      'catalog/catalog.go:12 ref type Catalog',
      'catalog/catalog.go:13 ref type string',
      'catalog/catalog.go:13 ref type Book',
      'catalog/catalog.go:16 ref type Catalog',
      'catalog/catalog.go:17 ref type Catalog',
      'catalog/catalog.go:17 ref call make',
      'catalog/catalog.go:17 ref type string',
      'catalog/catalog.go:17 ref type Book',
      'catalog/catalog.go:21 ref type Catalog',
      'catalog/catalog.go:21 ref type int',
      'catalog/catalog.go:21 ref type Book',
      'catalog/catalog.go:22 ref call make',
      'catalog/catalog.go:22 ref type string',
      'catalog/catalog.go:22 ref call len',
      'catalog/catalog.go:24 ref call append',
      'catalog/catalog.go:26 ref call Strings',
      'catalog/catalog.go:27 ref type Book',
      'catalog/catalog.go:28 ref call min',
      'catalog/catalog.go:28 ref call len',
      'catalog/catalog.go:29 ref call len',
      'catalog/catalog.go:32 ref call append',
      'client/src/bookstore/CatalogClient.java:6 def class CatalogClient',
      'client/src/bookstore/CatalogClient.java:9 def constructor CatalogClient',
      'client/src/bookstore/CatalogClient.java:13 def method findBooks',
      'client/src/bookstore/CatalogClient.java:17 def class Book',
      'client/src/bookstore/CatalogClient.java:3 ref import List',
      'client/src/bookstore/CatalogClient.java:7 ref type String',
      'client/src/bookstore/CatalogClient.java:9 ref type String',
      'client/src/bookstore/CatalogClient.java:13 ref type List',
      'client/src/bookstore/CatalogClient.java:13 ref type Book',
      'client/src/bookstore/CatalogClient.java:14 ref call getJson',
      'client/src/bookstore/CatalogClient.java:14 ref type Book',
      'client/src/bookstore/CatalogClient.java:17 ref type String',
      'pricing/src/lib.rs:5 def class Price',
      'pricing/src/lib.rs:7 def constant TAX_PERCENT',
      'pricing/src/lib.rs:11 def method with_tax',
      'pricing/src/lib.rs:16 def function price_with_tax',
      'pricing/src/lib.rs:5 ref type Price',
      'pricing/src/lib.rs:9 ref implementation Price',
      'pricing/src/lib.rs:11 ref type Price',
      'pricing/src/lib.rs:12 ref call Price',
      'pricing/src/lib.rs:12 ref call price_with_tax',
      'scripts/seed.js:8 def function seedCatalog',
      'scripts/seed.js:9 ref call writeFileSync',
      'scripts/seed.js:9 ref call stringify',
      'web/src/App.tsx:4 def function BookList',
      'web/src/App.tsx:16 def function App',
      'web/src/App.tsx:4 ref type Book',
      'web/src/App.tsx:7 ref call map',
      'web/src/App.tsx:9 ref call formatPrice',
      'web/src/App.tsx:17 ref call useState',
      'web/src/App.tsx:17 ref type Book',
      'web/src/App.tsx:18 ref call useEffect',
      'web/src/App.tsx:19 ref call fetchBooks',
      'web/src/App.tsx:19 ref call then',
      'web/src/App.tsx:21 ref component BookList',
      'web/src/api.ts:1 def interface Book',
      'web/src/api.ts:7 def function fetchBooks',
      'web/src/api.ts:12 def function formatPrice',
      'web/src/api.ts:7 ref type Promise',
      'web/src/api.ts:7 ref type Book',
      'web/src/api.ts:8 ref call fetch',
      'web/src/api.ts:9 ref call json',
      'web/src/api.ts:9 ref type Book',
      'web/src/api.ts:12 ref call toFixed',
    ]);
  });

  test('one worker or two, the same tags', async () => {
    const one = await cliTags(root, ['--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-jobs1-')), '--jobs', '1']);
    const two = await cliTags(root, ['--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-jobs2-')), '--jobs', '2']);
    expect(two).toEqual(one);
    expect(one).toEqual(await cliTags(root));
  });
});
