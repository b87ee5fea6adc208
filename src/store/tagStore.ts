import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { FileRecord, RankPart, RenderPart } from '../record/fileRecord.js';
import { RECORD_VERSION } from '../record/fileRecord.js';
import { decodeRankPart, decodeRecord, decodeRenderPart, recordStamp, type StoredStamp } from '../record/recordCodec.js';
import { claimCacheFolder } from './cacheFolder.js';
import { lmdbFileDamage } from './lmdbFileCheck.js';
import { StoreFiles } from './storeFiles.js';

/** The store's file name carries the record version: a bump starts a fresh store. */
export const STORE_FILE = `tags-v${RECORD_VERSION}.mdb`;

/**
 * Stored values by relative path. A value is a stored record (see record/recordCodec.ts): the file's
 * mtime and size, then its msgpack-encoded FileRecord. Workers build the values; the store
 * only moves bytes, so a warm run decodes nothing it does not use. Beside the records, the
 * cl100k token counts of map lines already counted, so a repeated map loads no tokenizer, and
 * the identifier tables ranking derives from all records, so a warm map decodes no record to rank.
 * On disk, each carries a CRC-32 of what it stands for: what fails it is never served.
 */
export interface TagStore {
  /** Where the store lives, or null when it is held in memory. */
  readonly location: string | null;
  /** mtime and size of every stored path; a record that fails its checksum gets a stamp no file matches. */
  stamps(): Map<string, StoredStamp>;
  get(path: string): FileRecord | undefined;
  /** The part of a record a rendering reads. */
  renderPart(path: string): RenderPart | undefined;
  /** The part of a record ranking reads. */
  rankPart(path: string): RankPart | undefined;
  /** Writes one shard's values and removals in one transaction, and moves to the next generation. */
  commit(values: ReadonlyMap<string, Uint8Array>, removals?: readonly string[]): Promise<void>;
  /** Counts commits: what was derived from the records at one generation is stale at the next. */
  generation(): number;
  /** The encoded identifier tables saved at the current generation, if any; valid until the next read. */
  identifierTables(): Uint8Array | undefined;
  /** Saves identifier tables derived from the records at `generation`, unless a commit came since. */
  saveIdentifierTables(tables: Uint8Array, generation: number): Promise<void>;
  /** The token count of a rendered map line (with its newline), if one was saved. */
  tokenCount(line: string): number | undefined;
  saveTokenCounts(counts: ReadonlyMap<string, number>): Promise<void>;
  close(): Promise<void>;
}

/** LMDB keys are limited to 1978 bytes; longer lines are counted again each time instead. */
const MAX_CACHED_LINE_BYTES = 1000;

/** How often, and how long apart, to look again at a store another run is creating this instant. */
const SETTLE_TRIES = 40;
const SETTLE_MS = 25;

/**
 * Opens the LMDB store in `cacheDir` (see claimCacheFolder for the folder's rules). The store is
 * used only when it is ours (see StoreFiles) and LMDB can map it safely (see lmdbFileDamage);
 * one that is ours and damaged is deleted and recreated. A store that is not ours, a permission
 * error or a failed recreation keeps the run's tags in memory. Each of these is one warning.
 */
export async function openTagStore(root: string, cacheDir: string, warn: (message: string) => void = () => {}): Promise<TagStore> {
  const inMemory = (why: string): TagStore => {
    warn(`${why}; keeping tags in memory`);
    return new MemoryTagStore();
  };
  const folderProblem = claimCacheFolder(root, cacheDir);
  if (folderProblem) return inMemory(folderProblem);
  const files = new StoreFiles(join(cacheDir, STORE_FILE));
  try {
    removeOtherVersions(cacheDir);
    const foreign = await readyStoreFiles(files, warn);
    if (foreign) return inMemory(`tag store ${files.data} ${foreign}`);
  } catch (error) {
    return inMemory(`cannot use tag store ${files.data} (${describe(error)})`);
  }
  try {
    return await LmdbTagStore.open(files.data, warn);
  } catch (error) {
    if (isPermissionError(error)) return inMemory(`cannot open tag store ${files.data} (${describe(error)})`);
    warn(`tag store ${files.data} is unusable (${describe(error)}); recreating it`);
  }
  try {
    files.remove();
    files.create();
    return await LmdbTagStore.open(files.data, warn);
  } catch (error) {
    return inMemory(`cannot recreate tag store ${files.data} (${describe(error)})`);
  }
}

/**
 * Makes the store's files ours and sound to map: created when absent, checked when changed
 * since last found sound, recreated when damaged. Returns why they are not ours to use, if so.
 */
async function readyStoreFiles(files: StoreFiles, warn: (message: string) => void): Promise<string | null> {
  for (let tries = 0; ; tries++) {
    const state = files.state();
    if (state.kind === 'foreign') return state.why;
    if (state.kind === 'settling') {
      if (tries === SETTLE_TRIES) return 'is being made by another run that does not finish';
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      continue;
    }
    let absent = state.kind === 'absent';
    if (state.kind === 'ours' && !state.checked) {
      const stamp = files.checkStamp();
      const damage = lmdbFileDamage(files.data);
      if (damage === null) files.noteChecked(stamp);
      else {
        warn(`tag store ${files.data} is damaged (${damage}); recreating it`);
        files.remove();
        absent = true;
      }
    }
    try {
      if (absent) files.create();
    } catch (error) {
      // Another run created it first: look again.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && tries < SETTLE_TRIES) continue;
      throw error;
    }
    files.assertWritable();
    return null;
  }
}

/** Stores of other record versions are dead weight: those that are ours go. */
function removeOtherVersions(cacheDir: string): void {
  for (const name of readdirSync(cacheDir)) {
    if (!/^tags-v\d+\.mdb$/.test(name) || name === STORE_FILE) continue;
    const files = new StoreFiles(join(cacheDir, name));
    if (files.state().kind === 'ours') files.remove();
  }
}

const PERMISSION_ERRORS = new Set(['EACCES', 'EPERM', 'EROFS']);
const PERMISSION_ERRNOS = new Set([constants.errno.EACCES, constants.errno.EPERM, constants.errno.EROFS]);

/** Node's errors carry the name as their code, lmdb-js's the number. */
function isPermissionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? PERMISSION_ERRORS.has(code) : typeof code === 'number' && PERMISSION_ERRNOS.has(code);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads of a stored record and its parts, whatever holds the bytes. */
abstract class RecordReader {
  /** The stored value of `path`, valid until the next read. */
  protected abstract value(path: string): Uint8Array | undefined;

  get(path: string): FileRecord | undefined {
    const value = this.value(path);
    return value ? decodeRecord(value) : undefined;
  }

  renderPart(path: string): RenderPart | undefined {
    const value = this.value(path);
    return value ? decodeRenderPart(value) : undefined;
  }

  rankPart(path: string): RankPart | undefined {
    const value = this.value(path);
    return value ? decodeRankPart(value) : undefined;
  }
}

type LmdbDatabase = import('lmdb').Database<Buffer, string>;
type LmdbRoot = import('lmdb').RootDatabase<Buffer, string>;

/**
 * Keys of the `derived` database: the generation, and the tables stamped with the generation
 * they were built at and the CRC-32 of their bytes.
 */
const GENERATION_KEY = 'generation';
const TABLES_KEY = 'identifier-tables';
const GENERATION_BYTES = 8;
const TABLES_CRC_AT = 8;
const TABLES_AT = 16;
/** A stored record, a token count: the value, then the CRC-32 of what it stands for. */
const CRC_BYTES = 4;

/** The stamp of a record that failed its checksum: it matches no file, so the file is parsed again, or the record dropped. */
const DAMAGED_STAMP: StoredStamp = { mtimeMs: Number.NaN, size: Number.NaN, definitions: 0, references: 0, skipped: null };

class LmdbTagStore extends RecordReader implements TagStore {
  /** What was found damaged and said once: the tables, the token counts. */
  private readonly warned = new Set<string>();

  private constructor(
    private readonly root: LmdbRoot,
    private readonly records: LmdbDatabase,
    private readonly tokens: LmdbDatabase,
    private readonly derived: LmdbDatabase,
    readonly location: string,
    private readonly warn: (message: string) => void,
  ) {
    super();
  }

  static async open(path: string, warn: (message: string) => void): Promise<LmdbTagStore> {
    // Loaded here so commands that never touch the store never pay for lmdb, and as CommonJS:
    // the bundled build loads in 6 ms, its ESM module graph in 14 (with msgpackr, 16 against 27).
    const { open } = createRequire(import.meta.url)('lmdb') as typeof import('lmdb');
    const root = open<Buffer, string>({ path, noSubdir: true, maxDbs: 4 });
    const records = root.openDB<Buffer, string>({ name: 'records', encoding: 'binary' });
    const tokens = root.openDB<Buffer, string>({ name: 'tokens', encoding: 'binary' });
    const derived = root.openDB<Buffer, string>({ name: 'derived', encoding: 'binary' });
    return new LmdbTagStore(root, records, tokens, derived, path, warn);
  }

  stamps(): Map<string, StoredStamp> {
    const stamps = new Map<string, StoredStamp>();
    let damaged = 0;
    // Reading headers in place is twice as fast as a range that copies out every whole record.
    for (const key of this.records.getKeys()) {
      const value = this.value(key);
      if (!value) damaged++;
      stamps.set(key, value ? recordStamp(value) : DAMAGED_STAMP);
    }
    if (damaged > 0) this.warn(`${damaged} damaged record${damaged === 1 ? '' : 's'} in tag store ${this.location}; parsing them again`);
    return stamps;
  }

  /** The record stored for `path` if it passes its checksum. */
  protected value(path: string): Uint8Array | undefined {
    const stored = this.records.getBinaryFast(path);
    if (!stored || stored.length < CRC_BYTES) return undefined;
    const value = stored.subarray(0, stored.length - CRC_BYTES);
    return crc32(value) === uint32At(stored, value.length) ? value : undefined;
  }

  async commit(values: ReadonlyMap<string, Uint8Array>, removals: readonly string[] = []): Promise<void> {
    await this.records.transaction(() => {
      for (const [path, value] of values) {
        const stored = Buffer.alloc(value.length + CRC_BYTES);
        stored.set(value);
        stored.writeUInt32LE(crc32(value), value.length);
        this.records.put(path, stored);
      }
      for (const path of removals) this.records.remove(path);
      const next = Buffer.alloc(GENERATION_BYTES);
      next.writeDoubleLE(this.generation() + 1, 0);
      this.derived.put(GENERATION_KEY, next);
    });
  }

  generation(): number {
    const value = this.derived.getBinaryFast(GENERATION_KEY);
    const generation = value?.length === GENERATION_BYTES ? leadingDouble(value) : 0;
    return Number.isSafeInteger(generation) && generation >= 0 ? generation : 0;
  }

  identifierTables(): Uint8Array | undefined {
    const generation = this.generation();
    const value = this.derived.getBinaryFast(TABLES_KEY);
    if (!value || value.length < TABLES_AT || leadingDouble(value) !== generation) return undefined;
    const tables = value.subarray(TABLES_AT);
    if (crc32(tables) === uint32At(value, TABLES_CRC_AT)) return tables;
    this.warnOnce('tables', `the identifier tables in tag store ${this.location} are damaged; rebuilding them`);
    return undefined;
  }

  async saveIdentifierTables(tables: Uint8Array, generation: number): Promise<void> {
    const value = Buffer.alloc(TABLES_AT + tables.length);
    value.writeDoubleLE(generation, 0);
    value.writeUInt32LE(crc32(tables), TABLES_CRC_AT);
    value.set(tables, TABLES_AT);
    await this.derived.transaction(() => {
      if (this.generation() === generation) this.derived.put(TABLES_KEY, value);
    });
  }

  /** The stored count, if it was stored for this very line: a count that fails the line's checksum is counted again. */
  tokenCount(line: string): number | undefined {
    if (Buffer.byteLength(line) > MAX_CACHED_LINE_BYTES) return undefined;
    const value = this.tokens.getBinaryFast(line);
    if (!value) return undefined;
    if (value.length === 4 + CRC_BYTES && uint32At(value, 4) === crc32(line)) return uint32At(value, 0);
    this.warnOnce('tokens', `token counts in tag store ${this.location} are damaged; counting those lines again`);
    return undefined;
  }

  async saveTokenCounts(counts: ReadonlyMap<string, number>): Promise<void> {
    await this.tokens.transaction(() => {
      for (const [line, count] of counts) {
        if (Buffer.byteLength(line) > MAX_CACHED_LINE_BYTES) continue;
        const value = Buffer.alloc(4 + CRC_BYTES);
        value.writeUInt32LE(count, 0);
        value.writeUInt32LE(crc32(line), 4);
        this.tokens.put(line, value);
      }
    });
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  private warnOnce(what: string, message: string): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    this.warn(message);
  }
}

/** lmdb-js hands large values over as plain Uint8Arrays, without Buffer's readers. */
function leadingDouble(value: Uint8Array): number {
  return new DataView(value.buffer, value.byteOffset, value.byteLength).getFloat64(0, true);
}

function uint32At(value: Uint8Array, at: number): number {
  return new DataView(value.buffer, value.byteOffset, value.byteLength).getUint32(at, true);
}

class MemoryTagStore extends RecordReader implements TagStore {
  readonly location = null;
  private readonly values = new Map<string, Uint8Array>();
  private readonly tokenCounts = new Map<string, number>();
  private commits = 0;
  private tables: { generation: number; value: Uint8Array } | null = null;

  stamps(): Map<string, StoredStamp> {
    const stamps = new Map<string, StoredStamp>();
    for (const [path, value] of this.values) stamps.set(path, recordStamp(value));
    return stamps;
  }

  protected value(path: string): Uint8Array | undefined {
    return this.values.get(path);
  }

  async commit(values: ReadonlyMap<string, Uint8Array>, removals: readonly string[] = []): Promise<void> {
    for (const [path, value] of values) this.values.set(path, value);
    for (const path of removals) this.values.delete(path);
    this.commits++;
  }

  generation(): number {
    return this.commits;
  }

  identifierTables(): Uint8Array | undefined {
    return this.tables?.generation === this.commits ? this.tables.value : undefined;
  }

  async saveIdentifierTables(tables: Uint8Array, generation: number): Promise<void> {
    if (generation === this.commits) this.tables = { generation, value: tables };
  }

  tokenCount(line: string): number | undefined {
    return this.tokenCounts.get(line);
  }

  async saveTokenCounts(counts: ReadonlyMap<string, number>): Promise<void> {
    for (const [line, count] of counts) this.tokenCounts.set(line, count);
  }

  async close(): Promise<void> {}
}
