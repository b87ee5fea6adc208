import { mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { seededRandom } from '../../dist/bench/seededRandom.js';
import { decodeIdentifierTables, TABLES_MAGIC } from '../../dist/src/derived/tablesCodec.js';
import { STORE_FILE } from '../../dist/src/store/tagStore.js';
import { type CliResult, cliTags, indexJson, runCli } from '../support/cli.js';
import { codeSlice } from '../support/codeSlice.js';
import { readStoreEntries, writeRawKeyEntry, writeStoreEntries } from '../support/storeEntries.js';

/**
 * A damaged store never crashes a run and never serves what it no longer holds: a damaged file
 * is recreated, a damaged record parsed again, damaged tables rebuilt, damaged PageRank results
 * computed again and damaged token counts counted again, each with one warning line; never a
 * signal, never a stack trace, never a map over its budget.
 */
const BUDGET = 256;
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

const storeOf = (root: string) => join(root, '.repomap', STORE_FILE);
const lockOf = (root: string) => `${storeOf(root)}-lock`;

/** A map run that neither crashed nor printed a stack trace, each stderr line one of ours. */
async function map(root: string, args: string[] = []): Promise<CliResult> {
  const result = await runCli(['map', root, '-t', String(BUDGET), ...args]);
  expect(result.signal).toBeNull();
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const line of result.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^repomap: /);
  if (result.code === 0) expect(encoding.encode(result.stdout).length).toBeLessThanOrEqual(BUDGET);
  return result;
}

/** The map of `root` made from a fresh store elsewhere: what a damaged store must not change. */
async function freshMap(root: string): Promise<string> {
  const result = await map(root, ['--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-fresh-'))]);
  expect(result.code).toBe(0);
  return result.stdout;
}

/** The one kept PageRank result of a store (a default map keeps one), as its key and stored bytes. */
/** The one derived value whose key starts with `prefix`, as stored (its generation, its CRC, then the value from byte 16). */
function keptValue(root: string, prefix: string): [string, Buffer] {
  const kept = Object.entries(readStoreEntries(storeOf(root), 'derived')).filter(([key]) => key.startsWith(prefix));
  expect(kept).toHaveLength(1);
  return [kept[0]![0], Buffer.from(kept[0]![1], 'base64')];
}

/** Puts a derived value back, its CRC made to match: damage no check can see. */
function writeKeptValue(root: string, key: string, stored: Buffer): void {
  stored.writeUInt32LE(crc32(stored.subarray(16)), 8);
  writeStoreEntries(storeOf(root), 'derived', { [key]: stored.toString('base64') });
}

/** A kept value made other with a sound checksum is served (the map differs from a fresh store's) until a file changes: the store moved on, and its map is a fresh store's again. */
async function expectServedUntilAChange(root: string, fresh: string): Promise<void> {
  const served = await map(root);
  expect(served.stderr).toBe('');
  expect(served.stdout).not.toBe(fresh);
  const changed = join(root, 'src', 'rank', 'pageRank.ts');
  writeFileSync(changed, `${readFileSync(changed, 'utf8')}\nexport const added = 1;\n`);
  expect((await map(root)).stdout).toBe(await freshMap(root));
}

const warningLines = (result: CliResult) => result.stderr.split('\n').filter((line) => line.startsWith('repomap: warning: '));

describe('a damaged store', () => {
  test('a truncated store file is recreated with one warning, not a bus error', async () => {
    const root = codeSlice(['rank']);
    expect((await map(root)).code).toBe(0);
    truncateSync(storeOf(root), 10_000);
    const result = await map(root);
    expect(result.code).toBe(0);
    expect(warningLines(result)).toEqual([expect.stringMatching(/^repomap: warning: tag store .* is damaged \(.*\); recreating it$/)]);
    expect(result.stdout).toBe(await freshMap(root));
    expect((await map(root)).stderr).toBe('');
  });

  test('a record that fails to decode is parsed again, with one warning', async () => {
    const root = codeSlice(['rank']);
    const fresh = await freshMap(root);
    await indexJson(root);
    const records = readStoreEntries(storeOf(root), 'records');
    // The first file the map shows, one byte of its stored source text changed: still JSON, other text.
    const shown = /^(\S+):$/m.exec(fresh)![1]!;
    const value = Buffer.from(records[shown]!, 'base64');
    const at = value.indexOf('export');
    expect(at).toBeGreaterThan(0);
    value[at] = 'E'.charCodeAt(0);
    const other = Object.keys(records).find((path) => path !== shown)!;
    writeStoreEntries(storeOf(root), 'records', { [shown]: value.toString('base64'), [other]: Buffer.from('xyz').toString('base64') });
    const index = await runCli(['index', root, '--json']);
    expect(index.signal).toBeNull();
    expect(index.code).toBe(0);
    expect(await cliTags(root)).toEqual(await cliTags(root, ['--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-fresh-'))]));
    expect((await map(root)).stdout).toBe(fresh);
    expect(JSON.parse(index.stdout)).toMatchObject({ parsed: 2 });
    expect(warningLines(index)).toEqual([expect.stringMatching(/^repomap: warning: 2 damaged records in tag store .*; parsing them again$/)]);
  });

  test('identifier tables that fail their checksum are rebuilt, with one warning', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    const stored = Buffer.from(readStoreEntries(storeOf(root), 'derived')['identifier-tables']!, 'base64');
    // Find the encoded tables in the stored value by their header (the format's magic), whatever precedes it.
    const start = stored.indexOf(Buffer.from(Int32Array.of(TABLES_MAGIC).buffer));
    const tables = decodeIdentifierTables(stored.subarray(start));
    expect(tables).not.toBeNull();
    // The tables as another ranking would make them: every reference's weight reversed, decodable still.
    const weights = Buffer.from(tables!.referenceWeights.buffer, tables!.referenceWeights.byteOffset, tables!.referenceWeights.byteLength);
    const at = stored.indexOf(weights);
    expect(at).toBeGreaterThan(start);
    const reversed = Float64Array.from(tables!.referenceWeights).reverse();
    Buffer.from(reversed.buffer).copy(stored, at);
    writeStoreEntries(storeOf(root), 'derived', { 'identifier-tables': stored.toString('base64') });
    const result = await map(root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(fresh);
    expect(warningLines(result)).toEqual([
      expect.stringMatching(/^repomap: warning: damaged derived value identifier-tables in tag store .*; deriving it again$/),
    ]);
  });

  test('saved stamps that fail their checksum are read from the records again, with one warning', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    const stored = Buffer.from(readStoreEntries(storeOf(root), 'derived').stamps!, 'base64');
    // The first stamp's size, one bit off: a file that seems changed, had its checksum not caught it.
    stored[16 + 8]! ^= 1;
    writeStoreEntries(storeOf(root), 'derived', { stamps: stored.toString('base64') });
    const index = await runCli(['index', root, '--json']);
    expect(index.code).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ parsed: 0 });
    expect(warningLines(index)).toEqual([expect.stringMatching(/^repomap: warning: damaged stamps in tag store .*; reading them from the records$/)]);
    expect((await map(root)).stdout).toBe(fresh);
  });

  test('kept PageRank results that fail their checksum are computed again, with one warning', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    const [key, stored] = keptValue(root, 'page-ranks:');
    stored[stored.length - 1]! ^= 0xff;
    writeStoreEntries(storeOf(root), 'derived', { [key]: stored.toString('base64') });
    const result = await map(root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(fresh);
    expect(warningLines(result)).toEqual([
      expect.stringMatching(/^repomap: warning: damaged derived value page-ranks:[^ ]+ in tag store .*; deriving it again$/),
    ]);
    expect((await map(root)).stderr).toBe('');
  });

  test('many damaged derived values are one warning line naming five of them', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    const junk: Record<string, string> = {};
    for (let i = 0; i < 7; i++) junk[`junk-${i}`] = Buffer.from('not a derived value').toString('base64');
    writeStoreEntries(storeOf(root), 'derived', junk);
    const result = await map(root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(fresh);
    expect(warningLines(result)).toEqual([
      expect.stringMatching(
        /^repomap: warning: damaged derived values junk-0, junk-1, junk-2, junk-3, junk-4 and 2 more in tag store .*; deriving them again$/,
      ),
    ]);
    expect(Object.keys(readStoreEntries(storeOf(root), 'derived')).filter((key) => key.startsWith('junk-'))).toEqual([]);
  });

  test('kept PageRank results serve the maps of the store state they were computed at, and no other', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    // Other ranks with a sound checksum, as another ranking would keep them: served, so the map changes.
    const [key, stored] = keptValue(root, 'page-ranks:');
    // Every file has a record, one with no grammar (powerIteration.wat) too.
    const fileCount = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    const at = stored.length - 8 * fileCount;
    const reversed = Float64Array.from({ length: fileCount }, (_, i) => stored.readDoubleLE(at + 8 * (fileCount - 1 - i)));
    Buffer.from(reversed.buffer).copy(stored, at);
    writeKeptValue(root, key, stored);
    // The ranking the map kept, of an older generation: not served, so the map ranks again on the ranks above.
    const [rankingKey, ranking] = keptValue(root, 'ranking:');
    ranking.writeDoubleLE(0, 0);
    writeKeptValue(root, rankingKey, ranking);
    await expectServedUntilAChange(root, fresh);
  });

  test('a kept ranking serves the maps of the store state it was made at, and no other', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    // Its definitions in reverse, with a sound checksum: served, so the map changes.
    const [key, stored] = keptValue(root, 'ranking:');
    const value = stored.subarray(16);
    const [slotCount, fileCount] = [value.readDoubleLE(0), value.readDoubleLE(8)];
    const slotsAt = 8 * (5 + slotCount + fileCount);
    const slots = Int32Array.from({ length: slotCount }, (_, i) => value.readInt32LE(slotsAt + 4 * (slotCount - 1 - i)));
    Buffer.from(slots.buffer).copy(value, slotsAt);
    writeKeptValue(root, key, stored);
    await expectServedUntilAChange(root, fresh);
  });

  test('zeroed token counts are not served: the map keeps its budget and equals a fresh one', async () => {
    const root = codeSlice(['rank', 'map']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    const counts = readStoreEntries(storeOf(root), 'tokens');
    expect(Object.keys(counts).length).toBeGreaterThan(10);
    writeStoreEntries(storeOf(root), 'tokens', Object.fromEntries(Object.keys(counts).map((line) => [line, Buffer.alloc(4).toString('base64')])));
    const result = await map(root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(fresh);
    expect(warningLines(result)).toEqual([expect.stringMatching(/^repomap: warning: \d+ damaged token counts in tag store .*; counting those lines again$/)]);
  });

  test('a key damaged into bytes that are not UTF-8 is removed once, not reported on every run', async () => {
    const root = codeSlice(['rank']);
    const fresh = await freshMap(root);
    expect((await map(root)).stdout).toBe(fresh);
    for (const database of ['records', 'tokens'] as const) {
      const [key, value] = Object.entries(readStoreEntries(storeOf(root), database))[0]!;
      writeRawKeyEntry(storeOf(root), database, Buffer.concat([Buffer.from(key), Buffer.from([0xff, 0xfe])]).toString('base64'), value);
    }
    const repaired = await map(root);
    expect(repaired.stdout).toBe(fresh);
    expect(warningLines(repaired)).toEqual([
      expect.stringMatching(/^repomap: warning: 1 damaged record in tag store .*; parsing it again$/),
      expect.stringMatching(/^repomap: warning: 1 damaged token count in tag store .*; counting those lines again$/),
    ]);
    const after = await map(root);
    expect(after.stderr).toBe('');
    expect(after.stdout).toBe(fresh);
  });
});

type Corruption = 'truncate' | 'flip' | 'zero-lock' | 'garbage';
const CORRUPTIONS: readonly Corruption[] = ['truncate', 'flip', 'zero-lock', 'garbage'];
const PAGE = 4096;

/** Damages the store files in place (the same files, so the store stays ours), as `kind` says. */
function corrupt(root: string, kind: Corruption, random: () => number): void {
  const below = (n: number) => Math.floor(random() * n);
  const store = storeOf(root);
  const bytes = readFileSync(store);
  switch (kind) {
    case 'truncate':
      truncateSync(store, below(bytes.length));
      return;
    case 'flip': {
      const pages = bytes.length / PAGE;
      for (let page = 0, count = 1 + below(4); page < count; page++) {
        const base = below(pages) * PAGE;
        // Half of them in the page's head, where LMDB keeps its header and node offsets.
        for (let flip = 0, flips = 1 + below(32); flip < flips; flip++) bytes[base + below(random() < 0.5 ? 256 : PAGE)] = below(256);
      }
      writeFileSync(store, bytes);
      return;
    }
    case 'zero-lock':
      writeFileSync(lockOf(root), Buffer.alloc(statSync(lockOf(root)).size));
      return;
    case 'garbage':
      writeFileSync(store, Buffer.from(Array.from({ length: 1 + below(2 * bytes.length) }, () => below(256))));
      return;
  }
}

describe('a corruption campaign', () => {
  // 21 maps, some indexing a recreated store: 58 s on a loaded 2-core machine, past the suite's 60 s per test on a busier one.
  test('20 seeded corruptions of the store files: each map exits 0 or 1 with a line per problem, never a signal, within its budget', async () => {
    const root = codeSlice(['rank', 'pack']);
    expect((await map(root)).code).toBe(0);
    const pristine = { store: readFileSync(storeOf(root)), lock: readFileSync(lockOf(root)) };
    const random = seededRandom(20_240_610);
    const outcomes: Record<string, number[]> = {};
    for (let run = 0; run < 20; run++) {
      // Back to the pristine bytes in the same files: what the previous run recreated stays ours.
      writeFileSync(storeOf(root), pristine.store);
      writeFileSync(lockOf(root), pristine.lock);
      const kind = CORRUPTIONS[run % CORRUPTIONS.length]!;
      corrupt(root, kind, random);
      const result = await map(root);
      expect([0, 1], `${kind} (run ${run}): ${result.stderr}`).toContain(result.code);
      expect(result.stderr.split('\n').filter(Boolean).length, `${kind} (run ${run}): ${result.stderr}`).toBeLessThanOrEqual(2);
      outcomes[kind] = [...(outcomes[kind] ?? []), result.code!];
    }
    console.info(`corruption campaign: ${JSON.stringify(outcomes)}`);
  }, 300_000);
});
