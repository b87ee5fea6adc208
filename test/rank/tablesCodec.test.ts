import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DerivedTables } from '../../dist/src/derived/derivedTables.js';
import { pageRankKey } from '../../dist/src/derived/pageRanksCodec.js';
import { decodeIdentifierTables, decodeLexicalTables, encodeIdentifierTables, encodeLexicalTables } from '../../dist/src/derived/tablesCodec.js';
import { buildIdentifierTables } from '../../dist/src/rank/identifierTables.js';
import { buildLexicalTables, postingsOf } from '../../dist/src/rank/lexicalTables.js';
import { DEFAULT_PAGERANK } from '../../dist/src/rank/pageRank.js';
import { rankDefinitions, rankedDefinitions } from '../../dist/src/rank/rankDefinitions.js';
import { StageTimer } from '../../dist/src/stageTimer.js';
import { openTagStore } from '../../dist/src/store/tagStore.js';
import { extractFixture, fixtureFileTags, listFiles } from '../support/fixtureTags.js';

/** The identifier tables a warm map reads instead of every record: stored whole, valid for one store generation. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

describe('lexical tables', () => {
  const files = fixtureFileTags(POLYGLOT);
  const lexical = buildLexicalTables(files);

  test('are over the identifier tables’ file ids: a term’s files are those whose text holds it', () => {
    const paths = buildIdentifierTables(files).paths;
    const names = postingsOf(lexical, 'names');
    expect(names.fileTotals.length).toBe(paths.length);
    const definers = paths.filter((path) => files.find((file) => file.path === path)!.definitions.some((d) => d.name === 'price_with_tax'));
    expect(definers).toEqual(['api/server.py', 'pricing/src/lib.rs']);
    for (const path of definers) expect(names.fileTotals[paths.indexOf(path)]).toBeGreaterThan(0);
  });

  test('come back from their bytes whole, with the CRC of their paths', () => {
    const bytes = encodeLexicalTables({ ...lexical, pathsCrc: 0xdeadbeef });
    expect(decodeLexicalTables(bytes)).toEqual({ ...lexical, pathsCrc: 0xdeadbeef });
    const inPlace = decodeLexicalTables(new Uint8Array(bytes), { owned: true })!;
    expect(inPlace.textTermFiles.buffer.byteLength).toBe(bytes.length);
  });

  test('bytes that are not lexical tables decode to null: cut, zeroed, too short, or identifier tables', () => {
    const bytes = encodeLexicalTables({ ...lexical, pathsCrc: 1 });
    expect(decodeLexicalTables(bytes.subarray(0, bytes.length - 1))).toBeNull();
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(decodeLexicalTables(longer)).toBeNull();
    expect(decodeLexicalTables(new Uint8Array(bytes.length))).toBeNull();
    expect(decodeLexicalTables(new Uint8Array(3))).toBeNull();
    expect(decodeLexicalTables(encodeIdentifierTables(buildIdentifierTables(files)))).toBeNull();
  });
});

describe('identifier tables', () => {
  const tables = buildIdentifierTables(fixtureFileTags(POLYGLOT));

  test('hold the fixture: files in path order, each definition and reference once', () => {
    expect(tables.paths).toEqual(listFiles(POLYGLOT));
    const records = extractFixture(POLYGLOT);
    expect(tables.definitionLines.length).toBe(records.reduce((sum, record) => sum + record.definitions.length, 0));
    expect(tables.referenceFiles.length).toBe(records.reduce((sum, record) => sum + record.referenceCounts.names.length, 0));
    const reference = tables.identNames.indexOf('price_with_tax');
    const definers = Array.from(
      tables.definerFiles.subarray(tables.definerOffsets[reference], tables.definerOffsets[reference + 1]),
      (file) => tables.paths[file],
    );
    expect(definers).toEqual(['api/server.py', 'pricing/src/lib.rs']);
  });

  test('come back from their bytes whole, and rank the same', () => {
    const decoded = decodeIdentifierTables(encodeIdentifierTables(tables));
    expect(decoded).toEqual(tables);
    const options = { chatFiles: new Set(['web/src/App.tsx']), mentionedIdents: new Set(['pricing']) };
    expect(rankedDefinitions(rankDefinitions(decoded!, options), decoded!)).toEqual(rankedDefinitions(rankDefinitions(tables, options), tables));
  });

  test('owned bytes decode in place when aligned, and are copied when not', () => {
    const bytes = encodeIdentifierTables(tables);
    const aligned = new Uint8Array(bytes);
    const inPlace = decodeIdentifierTables(aligned, { owned: true })!;
    expect(inPlace).toEqual(tables);
    expect(inPlace.referenceFiles.buffer).toBe(aligned.buffer);
    // One byte in: a Float64 view there would throw, so the bytes are copied out first.
    const shifted = new Uint8Array(bytes.length + 1).fill(9, 0, 1);
    shifted.set(bytes, 1);
    const copied = decodeIdentifierTables(shifted.subarray(1), { owned: true })!;
    expect(copied).toEqual(tables);
    expect(copied.referenceFiles.buffer).not.toBe(shifted.buffer);
  });

  test('bytes that are not tables decode to null', () => {
    const bytes = encodeIdentifierTables(tables);
    expect(decodeIdentifierTables(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(decodeIdentifierTables(new Uint8Array(bytes.length))).toBeNull();
    expect(decodeIdentifierTables(new Uint8Array(3))).toBeNull();
  });

  test('the store serves them only at the generation they were built from', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-tables-'));
    const store = await openTagStore(dirname(cacheDir), cacheDir);
    try {
      const bytes = encodeIdentifierTables(tables);
      await store.commit(new Map());
      const generation = store.generation();
      await store.saveDerivedValues(new Map([['identifier-tables', bytes]]), generation);
      expect(store.derivedValue('identifier-tables')).toEqual(Buffer.from(bytes));
      await store.commit(new Map(), []);
      expect(store.generation()).toBe(generation + 1);
      expect(store.derivedValue('identifier-tables')).toBeUndefined();
      // Built from records a commit has since changed: not saved.
      await store.saveDerivedValues(new Map([['identifier-tables', bytes]]), generation);
      expect(store.derivedValue('identifier-tables')).toBeUndefined();
      // A large repository's tables: lmdb-js returns values of 16 MiB and more as plain Uint8Arrays.
      const large = new Uint8Array(16 << 20).fill(7);
      await store.saveDerivedValues(new Map([['identifier-tables', large]]), store.generation());
      expect(Buffer.compare(store.derivedValue('identifier-tables')!, large)).toBe(0);
    } finally {
      await store.close();
    }
  });

  test('an owned read stays what it was after the store reads others, and bytes encoded with room are saved as they are', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-owned-'));
    const stores = [await openTagStore(dirname(cacheDir), cacheDir), await openTagStore(dirname(cacheDir), '/dev/null/no-cache')];
    for (const store of stores) {
      try {
        const bytes = encodeIdentifierTables(tables);
        const other = new Uint8Array(bytes.length).fill(5);
        await store.commit(new Map());
        await store.saveDerivedValues(
          new Map([
            ['identifier-tables', bytes],
            ['import-targets', other],
          ]),
          store.generation(),
        );
        // The tables' room in front of them took the store's header, not a byte of theirs.
        expect(decodeIdentifierTables(bytes)).toEqual(tables);
        const owned = store.derivedValue('identifier-tables', { owned: true })!;
        const last = store.lastDerivedValue('identifier-tables', { owned: true })!;
        expect(store.derivedValue('import-targets')).toEqual(store.location === null ? other : Buffer.from(other));
        expect(Buffer.compare(owned, bytes)).toBe(0);
        expect(Buffer.compare(last.value, bytes)).toBe(0);
        expect(last.generation).toBe(store.generation());
        expect(decodeIdentifierTables(owned, { owned: true })).toEqual(tables);
      } finally {
        await store.close();
      }
    }
  });

  test('a PageRank result read from the store stays what it was after the store reads others', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-kept-'));
    const store = await openTagStore(dirname(cacheDir), cacheDir);
    const graph = (importLinkWeight: number) => ({ identFactors: undefined, importLinkWeight, pageRank: DEFAULT_PAGERANK });
    const result = (rank: number) => ({ ranks: Float64Array.of(rank), iterations: 3, converged: true });
    try {
      const timer = new StageTimer();
      const first = new DerivedTables(store, dirname(cacheDir));
      await first.identifierTables(['a.py'], timer);
      first.set(graph(1), result(0.25));
      first.set(graph(2), result(0.75));
      await first.saveComputed();
      const second = new DerivedTables(store, dirname(cacheDir));
      await second.identifierTables(['a.py'], timer);
      expect(second.get(graph(1))).toEqual(result(0.25));
      // LMDB hands out one buffer for every read: kept as read, the first result would now hold the second's bytes.
      expect(second.get(graph(2))).toEqual(result(0.75));
      expect(second.get(graph(1))).toEqual(result(0.25));
    } finally {
      await store.close();
    }
  });

  test('tables read ahead serve the next call for tables alone', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-ahead-'));
    const store = await openTagStore(dirname(cacheDir), cacheDir);
    const stagesOf = (timer: StageTimer) => [...timer.report().matchAll(/([a-z ]+) [\d.]+ ms/g)].map((match) => match[1]!.trim());
    try {
      const derived = new DerivedTables(store, dirname(cacheDir));
      await derived.identifierTables(['a.py'], new StageTimer());
      await derived.saveComputed();
      // Read ahead, then not needed: the tables of this generation are at hand.
      derived.readAhead(1, 2);
      await derived.identifierTables(['a.py'], new StageTimer());
      await store.commit(new Map());
      // A later call reads what is stored, as any would: nothing read ahead is left to patch from.
      const later = new StageTimer();
      await derived.identifierTables(['a.py'], later);
      expect(stagesOf(later)).toContain('read tables');
      expect(stagesOf(later)).not.toContain('patch tables');
    } finally {
      await store.close();
    }
  });

  test('new tables drop the PageRank results kept for others, in the store and in memory', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-tables-'));
    const stores = [await openTagStore(dirname(cacheDir), cacheDir), await openTagStore(dirname(cacheDir), '/dev/null/no-cache')];
    expect(stores.map((store) => store.location === null)).toEqual([false, true]);
    const graph = (importLinkWeight: number) => ({ identFactors: undefined, importLinkWeight, pageRank: DEFAULT_PAGERANK });
    const result = (files: number) => ({ ranks: new Float64Array(files).fill(1 / files), iterations: 1, converged: true });
    const pageRankKeys = (store: (typeof stores)[number]) =>
      store
        .derivedKeys()
        .filter((key) => key.startsWith('page-ranks:'))
        .sort();
    for (const store of stores) {
      try {
        const timer = new StageTimer();
        const first = new DerivedTables(store, dirname(cacheDir));
        await first.identifierTables(['a.py'], timer);
        first.set(graph(1), result(1));
        await first.saveComputed();
        const second = new DerivedTables(store, dirname(cacheDir));
        await second.identifierTables(['a.py'], timer);
        expect(second.get(graph(1))).toEqual(result(1));
        second.set(graph(2), result(1));
        await second.saveComputed();
        expect(pageRankKeys(store)).toEqual([pageRankKey(graph(1)), pageRankKey(graph(2))]);
        // Other files at the same generation (another --ignore): other tables, and the results of the old ones dropped.
        const third = new DerivedTables(store, dirname(cacheDir));
        await third.identifierTables(['a.py', 'b.py'], timer);
        third.set(graph(2), result(2));
        await third.saveComputed();
        expect(pageRankKeys(store)).toEqual([pageRankKey(graph(2))]);
      } finally {
        await store.close();
      }
    }
  });
});
