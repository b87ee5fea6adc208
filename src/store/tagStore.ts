import { isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync, statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Definition, FileRecord, FileStamp, RankPart, References, RenderPart } from '../record/fileRecord.js';
import { RECORD_VERSION } from '../record/fileRecord.js';
import {
  decodeDefinitions,
  decodeRankPart,
  decodeRecord,
  decodeReferences,
  decodeRenderPart,
  recordContent,
  recordStamp,
  restampRecord,
  type StoredStamp,
  UNMATCHED_STAMP,
} from '../record/recordCodec.js';
import { StampTable } from '../record/stampTable.js';
import { claimCacheFolder } from './cacheFolder.js';
import { lmdbFileDamage } from './lmdbFileCheck.js';
import { loadLmdb } from './loadLmdb.js';
import { StoreFiles } from './storeFiles.js';

/** The store's file name carries the record version: a bump starts a fresh store. */
export const STORE_FILE = `tags-v${RECORD_VERSION}.mdb`;

/**
 * The name of a value derived from all records and kept until the next commit: the records'
 * stamps (`stamps`, the store's own), and what the derived stage (src/derived/) names. The store
 * only keeps them, stamped with their generation: what depends on what is the stage's rule.
 */
export type DerivedKey = string;

/**
 * Stored values by relative path. A value is a stored record (see record/recordCodec.ts): the file's
 * mtime and size, then its msgpack-encoded FileRecord. Workers build the values; the store
 * only moves bytes, so a warm run decodes nothing it does not use. Beside the records, the
 * cl100k token counts of map lines already counted, so a repeated map loads no tokenizer, and
 * what is derived from all records (DerivedKey), so a warm run reads no record to compare stamps
 * or to rank.
 * On disk, each carries a CRC-32 of what it stands for, checked whenever the store changed since
 * it was last found sound: what fails it is never served.
 */
/** Buffers made by derivedValueRoom, whose first DERIVED_AT bytes are the store's. */
const ROOMY_BUFFERS = new WeakSet<ArrayBufferLike>();

/**
 * Memory for a derived value of `length` bytes with room before it for what the store puts in
 * front of it on disk: saved so, it is not copied (a fresh copy of the tables cost 35 ms at 9,320 files).
 */
export function derivedValueRoom(length: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(DERIVED_AT + length);
  ROOMY_BUFFERS.add(buffer.buffer);
  return buffer.subarray(DERIVED_AT);
}

/** How a derived value is read (see TagStore.derivedValue). */
export interface DerivedRead {
  owned: boolean;
}

export interface TagStore {
  /** Where the store lives, or null when it is held in memory. */
  readonly location: string | null;
  /** mtime and size of every stored path; a record that failed its checksum gets a stamp no file matches. */
  stamps(): StampTable;
  /** Saves what stamps() gave at `generation`, with the caller's commits since, for the next run to read in one piece. */
  saveStamps(stamps: StampTable, generation: number): Promise<void>;
  get(path: string): FileRecord | undefined;
  /** The part of a record a rendering reads. */
  renderPart(path: string): RenderPart | undefined;
  /** The part of a record ranking reads. */
  rankPart(path: string): RankPart | undefined;
  /** A record's definitions alone (what an outline reads). */
  definitions(path: string): Definition[] | undefined;
  /** How many definitions a record holds, from its header: nothing decoded. */
  definitionCount(path: string): number | undefined;
  /** A record's references alone (what `find` reads of the files that use a name): neither JSON part is decoded. */
  references(path: string): References | undefined;
  /** The content id of the bytes a record was made from (see contentId.ts), from its header; '' when it has none. */
  storedContent(path: string): string | undefined;
  /** A copy of a record under a new stamp, to commit for a file whose bytes are those it was made from. */
  restamped(path: string, stamp: FileStamp): Uint8Array | undefined;
  /**
   * Writes one shard's values and removals in one transaction, and moves to the next generation.
   * `derivedStand`: the values are records restamped (the same bytes under a new stamp), so what
   * was derived at the current generation, the stamps aside, stands at the next.
   */
  commit(values: ReadonlyMap<string, Uint8Array>, removals?: readonly string[], derivedStand?: boolean): Promise<void>;
  /** Counts commits: what was derived from the records at one generation is stale at the next. */
  generation(): number;
  /** Reads from now on what other processes have committed: LMDB keeps a process's reads on one snapshot until its next timer turn. */
  catchUp(): void;
  /**
   * The value saved under `key` at the current generation, if any; valid until the next read.
   * `owned`: in memory of the caller's own instead, a big value read straight into it (a copy of
   * the other would be a second copy: 43 MB for the tables at 9,320 files).
   */
  derivedValue(key: DerivedKey, read?: DerivedRead): Uint8Array | undefined;
  /** The value last saved under `key`, at whatever generation, with that generation: for a stage that brings it up to date rather than deriving it again. Valid until the next read, or owned (see derivedValue). */
  lastDerivedValue(key: DerivedKey, read?: DerivedRead): { generation: number; value: Uint8Array } | undefined;
  /** Saves values derived from the records at `generation`, each under its key, and removes `removals`, in one transaction, unless a commit came since. */
  saveDerivedValues(values: ReadonlyMap<DerivedKey, Uint8Array>, generation: number, removals?: readonly DerivedKey[]): Promise<void>;
  /** The keys of every derived value kept, of any generation. */
  derivedKeys(): DerivedKey[];
  /** The token count of a rendered map line (with its newline), if one was saved. */
  tokenCount(line: string): number | undefined;
  saveTokenCounts(counts: ReadonlyMap<string, number>): Promise<void>;
  /** The repository's recent history as last saved by src/history/ (which knows the commit it ends at), if any. */
  gitHistory(): Uint8Array | undefined;
  /** Replaces the saved history: it does not depend on the records, so no generation stamps it. */
  saveGitHistory(history: Uint8Array): Promise<void>;
  /**
   * What moves with the store to another tree (see src/artifact/): every sound record under its
   * path, in path order; each saved token count (its value the count as a little-endian u32);
   * each value derived at the current generation but the stamps, which are this tree's alone.
   * A value is valid until the next is taken.
   */
  portable(): Iterable<PortableValue>;
  close(): Promise<void>;
}

export interface PortableValue {
  kind: 'record' | 'token-count' | 'derived';
  /** A record's path, a token count's line, a derived value's key. */
  key: string;
  value: Uint8Array;
}

/** A token count as portable() gives it. */
function portableCount(count: number): Uint8Array {
  const value = Buffer.alloc(4);
  value.writeUInt32LE(count, 0);
  return value;
}

const byPath = <T>(a: [string, T], b: [string, T]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** LMDB keys are limited to 1978 bytes: the store's stay well below (see recordKey; longer map lines are counted again each time). */
const MAX_KEY_BYTES = 1000;

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
  const noRoom = roomToCreate(files.data);
  if (noRoom) return inMemory(`cannot create tag store ${files.data} (${noRoom})`);
  let ready: string | ReadyStore;
  try {
    removeOtherVersions(cacheDir);
    ready = await readyStoreFiles(files, warn);
  } catch (error) {
    return inMemory(`cannot use tag store ${files.data} (${describe(error)})`);
  }
  if (typeof ready === 'string') return inMemory(`tag store ${files.data} ${ready}`);
  try {
    return new FallbackTagStore(await LmdbTagStore.open(files, warn, ready), warn);
  } catch (error) {
    if (error instanceof StoreWriteError) return inMemory(`cannot write tag store ${files.data} (${error.message})`);
    if (isPermissionError(error)) return inMemory(`cannot open tag store ${files.data} (${describe(error)})`);
    warn(`tag store ${files.data} is unusable (${describe(error)}); recreating it`);
  }
  try {
    files.remove();
    files.create();
    return new FallbackTagStore(await LmdbTagStore.open(files, warn, { uncheckedAt: null, soundAt: null, created: true }), warn);
  } catch (error) {
    return inMemory(`cannot recreate tag store ${files.data} (${describe(error)})`);
  }
}

/**
 * Why a store cannot be created here, if so: LMDB's first open writes its first pages, and on a
 * disk without room for them fails, or, when a page is half written, crashes.
 */
function roomToCreate(data: string): string | null {
  let size = 0;
  try {
    size = lstatSync(data).size;
  } catch {
    // No store yet (or none we can see: readyStoreFiles says why).
  }
  const free = size === 0 ? freeBytes(dirname(data)) : Number.POSITIVE_INFINITY;
  return free < SPARE_BYTES ? noRoom(free, SPARE_BYTES) : null;
}

function noRoom(free: number, needed: number): string {
  return `${Math.floor(free / 1024)} KiB free on its disk, ${Math.ceil(needed / 1024)} KiB needed`;
}

/**
 * Store files ready to open; `uncheckedAt`, their stamp, when what they hold is still to be
 * checked (see LmdbTagStore.checkContents); `soundAt`, their stamp, when they were found sound at
 * it; `created`, when this run made them (empty: sound once LMDB has set them up).
 */
interface ReadyStore {
  uncheckedAt: string | null;
  soundAt: string | null;
  created: boolean;
}

/**
 * Makes the store's files ours and sound to map: created when absent, walked when changed since
 * last found sound, recreated when damaged. Returns why they are not ours to use, if so.
 */
async function readyStoreFiles(files: StoreFiles, warn: (message: string) => void): Promise<string | ReadyStore> {
  for (let tries = 0; ; tries++) {
    const state = files.state();
    if (state.kind === 'foreign') return state.why;
    if (state.kind === 'abandoned') {
      files.removeAbandoned();
      continue;
    }
    if (state.kind === 'settling') {
      if (tries === SETTLE_TRIES) return 'is being made by another run that does not finish';
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      continue;
    }
    let absent = state.kind === 'absent';
    let uncheckedAt: string | null = null;
    const soundAt = state.kind === 'ours' && state.checked ? state.stamp : null;
    if (state.kind === 'ours' && !state.checked) {
      uncheckedAt = files.checkStamp();
      const damage = lmdbFileDamage(files.data);
      if (damage !== null) {
        warn(`tag store ${files.data} is damaged (${damage}); recreating it`);
        files.remove();
        absent = true;
        uncheckedAt = null;
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
    return { uncheckedAt, soundAt, created: absent };
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

const PERMISSION_ERRORS = ['EACCES', 'EPERM', 'EROFS'] as const;

/** Node's errors carry the name as their code, lmdb-js's the number (node:os loaded only then: a run without errors never needs it). */
function isPermissionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return (PERMISSION_ERRORS as readonly string[]).includes(code);
  const { errno } = process.getBuiltinModule('node:os').constants;
  return PERMISSION_ERRORS.some((name) => errno[name] === code);
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

  storedContent(path: string): string | undefined {
    const value = this.value(path);
    return value ? recordContent(value) : undefined;
  }

  restamped(path: string, stamp: FileStamp): Uint8Array | undefined {
    const value = this.value(path);
    return value ? restampRecord(value, stamp) : undefined;
  }

  renderPart(path: string): RenderPart | undefined {
    const value = this.value(path);
    return value ? decodeRenderPart(value) : undefined;
  }

  rankPart(path: string): RankPart | undefined {
    const value = this.value(path);
    return value ? decodeRankPart(value) : undefined;
  }

  definitions(path: string): Definition[] | undefined {
    const value = this.value(path);
    return value ? decodeDefinitions(value) : undefined;
  }

  definitionCount(path: string): number | undefined {
    const value = this.value(path);
    return value ? recordStamp(value).definitions : undefined;
  }

  references(path: string): References | undefined {
    const value = this.value(path);
    return value ? decodeReferences(value) : undefined;
  }
}

type LmdbDatabase = import('lmdb').Database<Buffer, string>;
type LmdbRoot = import('lmdb').RootDatabase<Buffer, string>;

/**
 * Keys of the `derived` database: the generation, and what was derived from the records (each
 * DerivedKey), stamped with the generation it was derived at and the CRC-32 of its bytes.
 */
const GENERATION_KEY = 'generation';
/** Every record's stamp at a generation (see saveStamps): the one derived value a restamp changes. */
const STAMPS_KEY = 'stamps';
/** The git history the ranking's git signals read (src/history/), saved whole. */
const GIT_HISTORY_KEY = 'git-history';
/**
 * Which generation's derived values stand at a later one (see commit): the later generation, then
 * the earlier, then their sum, as Float64s: a damaged field breaks the sum, and no CRC loads zlib
 * into a warm map (1.5 ms). A commit of restamped records moves it on instead of rewriting every
 * derived value under a new stamp (at 9,320 files that copied 150 MB for one touched file).
 */
const CARRIED_KEY = 'carried';
const CARRIED_BYTES = 24;
const isDerivedKey = (key: string): boolean => key !== GENERATION_KEY && key !== GIT_HISTORY_KEY && key !== CARRIED_KEY;
/** Whether a derived value under `key` may come from another store (an artifact): not the store's own keys, whose values are this tree's. */
export const isPortableKey = (key: DerivedKey): boolean => isDerivedKey(key) && key !== STAMPS_KEY && !key.startsWith(TREE_KEY_PREFIX);
/** Keys of derived values that describe this tree (its files' stamps), as the stamps do: they never move with the store. */
export const TREE_KEY_PREFIX = 'tree:';
const GENERATION_BYTES = 8;
const DERIVED_CRC_AT = 8;
const DERIVED_AT = 16;
/** A stored record, a token count: the value, then the CRC-32 of what it stands for. */
const CRC_BYTES = 4;
const COUNT_BYTES = 4 + CRC_BYTES;

/** The stamp of a record that failed its checksum: it matches no file, so the file is parsed again, or the record dropped. */
const DAMAGED_STAMP: StoredStamp = UNMATCHED_STAMP;

/** zlib's CRC-32, loaded when a value is written or checked: a warm map on a store found sound does neither. */
function crc32(data: Uint8Array | string): number {
  return process.getBuiltinModule('node:zlib').crc32(data);
}

/** A write the store on disk could not make: a full disk, a quota, an I/O error, no room to be sure of. */
class StoreWriteError extends Error {}

/** What a store holds, for a store in memory to go on from. */
interface StoreContents {
  values: Map<string, Uint8Array>;
  tokenCounts: Map<string, number>;
  derived: Map<DerivedKey, Uint8Array>;
  generation: number;
  history: Uint8Array | undefined;
}

/** Free space a write leaves aside beyond its own bound, for LMDB's free list and meta page. */
const SPARE_BYTES = 256 * 1024;
/** The pages a key's write dirties at most: its leaf and the branch pages above it. */
const PAGES_PER_KEY = 4;

/**
 * A record's key: its path, unless the path is too long to be an LMDB key; then a digest of it
 * after a `/`, which no relative path starts with. The record holds its full path (see pathAt).
 */
function recordKey(path: string): string {
  if (path.length * 3 <= MAX_KEY_BYTES || Buffer.byteLength(path) <= MAX_KEY_BYTES) return path;
  return `/${process.getBuiltinModule('node:crypto').createHash('sha256').update(path).digest('hex')}`;
}

const isDigestKey = (key: string): boolean => key.startsWith('/');

/**
 * The tag store in LMDB. Its writes are synchronous transactions, each made only when the disk
 * has room for the most it can write: a failure is then a StoreWriteError thrown here, which
 * FallbackTagStore turns into a store in memory. lmdb-js's asynchronous writes report a failed
 * commit from their write thread: they print it, reject a promise nobody holds, and the process
 * ends on that rejection (an abort when the native thread is still at work); and LMDB's C code
 * prints the errors of writes the disk refused.
 */
class LmdbTagStore extends RecordReader {
  /** Keys of records that failed their checksum, until they are written again. */
  private readonly damaged = new Set<string>();
  private pageBytes = 0;
  /**
   * Whether the store was found sound (opened so, or checked), until a write of ours fails.
   * Closing after writes notes the file sound again when every commit since was ours, so the next
   * run need not check the store for what this run wrote itself (0.2 s at 9,320 files, 2.5 s at
   * 93,200). Commits are counted, not the file's stamp followed write by write: lmdb-js commits
   * a `transactionSync` after it returns, so the stamp moves later, under the next write.
   */
  private sound = false;
  /** LMDB's last transaction id when the store was found sound, and this run's commits since. */
  private soundTxn = 0;
  private commits = 0;
  private wrote = false;

  private constructor(
    private readonly root: LmdbRoot,
    private readonly records: LmdbDatabase,
    private readonly tokens: LmdbDatabase,
    private readonly derived: LmdbDatabase,
    private readonly files: StoreFiles,
    private readonly warn: (message: string) => void,
  ) {
    super();
  }

  get location(): string {
    return this.files.data;
  }

  /** Opens the store; when it changed since last found sound (`uncheckedAt`), its contents are checked first, and noted sound if they are. */
  static async open(files: StoreFiles, warn: (message: string) => void, { uncheckedAt, soundAt, created }: ReadyStore): Promise<LmdbTagStore> {
    const { open } = loadLmdb();
    const root = open<Buffer, string>({ path: files.data, noSubdir: true, maxDbs: 4 });
    const records = root.openDB<Buffer, string>({ name: 'records', encoding: 'binary' });
    const tokens = root.openDB<Buffer, string>({ name: 'tokens', encoding: 'binary' });
    const derived = root.openDB<Buffer, string>({ name: 'derived', encoding: 'binary' });
    const store = new LmdbTagStore(root, records, tokens, derived, files, warn);
    try {
      // A store made here holds what LMDB set up and nothing else: sound from its first stamp.
      store.sound = created || soundAt !== null;
      if (uncheckedAt !== null) {
        store.sound = store.checkContents();
        if (store.sound) {
          files.noteChecked(uncheckedAt);
          store.wrote = false;
        }
      }
      // What the check removed is committed first: counted from here, this run's commits are those after it.
      await root.flushed;
      store.soundTxn = store.lastTxnId();
      store.commits = 0;
    } catch (error) {
      await root.close();
      throw error;
    }
    return store;
  }

  /**
   * Checks every record, derived value and token count against its CRC-32, once the store
   * changed: a damaged record is parsed again (see stamps), damaged derived values and counts
   * are dropped, each kind with one warning. Keys are read as bytes: one that is not UTF-8 is no
   * path or line of ours, and read as a string it would come back mangled, beyond removal. Whether all were sound.
   */
  private checkContents(): boolean {
    // Read through handles that give keys as bytes; removed through ours (a second handle's removals miss).
    const byBytes = (name: 'records' | 'tokens') => this.root.openDB<Buffer, Buffer>({ name, encoding: 'binary', keyEncoding: 'binary' });
    // Copied: a key read as bytes may share its buffer with the next one.
    const brokenRecords: Buffer[] = [];
    for (const { key, value } of byBytes('records').getRange()) {
      if (!isUtf8(key)) brokenRecords.push(Buffer.from(key));
      else if (value.length < CRC_BYTES || crc32(value.subarray(0, value.length - CRC_BYTES)) !== uint32At(value, value.length - CRC_BYTES)) {
        this.damaged.add(key.toString('utf8'));
      }
    }
    const badCounts: Buffer[] = [];
    for (const { key, value } of byBytes('tokens').getRange()) {
      if (!isUtf8(key) || value.length !== COUNT_BYTES || uint32At(value, 4) !== crc32(key)) badCounts.push(Buffer.from(key));
    }
    const badDerived: DerivedKey[] = [];
    for (const { key, value } of this.derived.getRange()) {
      if (isDerivedKey(key) && (value.length < DERIVED_AT || crc32(value.subarray(DERIVED_AT)) !== uint32At(value, DERIVED_CRC_AT))) badDerived.push(key);
    }
    const where = `in tag store ${this.location}`;
    const many = (count: number, what: string) => `${count} damaged ${what}${count === 1 ? '' : 's'}`;
    const damagedRecords = this.damaged.size + brokenRecords.length;
    if (damagedRecords > 0) this.warn(`${many(damagedRecords, 'record')} ${where}; parsing ${damagedRecords === 1 ? 'it' : 'them'} again`);
    if (badDerived.includes(STAMPS_KEY)) this.warn(`damaged stamps ${where}; reading them from the records`);
    const badValues = badDerived.filter((key) => key !== STAMPS_KEY);
    if (badValues.length > 0) {
      const [what, them] = badValues.length === 1 ? ['value', 'it'] : ['values', 'them'];
      // A few names say which; a store holding thousands of bad keys is one line still.
      const named = badValues.length > 5 ? `${badValues.slice(0, 5).join(', ')} and ${badValues.length - 5} more` : badValues.join(', ');
      this.warn(`damaged derived ${what} ${named} ${where}; deriving ${them} again`);
    }
    if (badCounts.length > 0) this.warn(`${many(badCounts.length, 'token count')} ${where}; counting those lines again`);
    if (brokenRecords.length > 0 || badDerived.length > 0 || badCounts.length > 0) {
      this.write(0, brokenRecords.length + badDerived.length + badCounts.length, () => {
        for (const key of brokenRecords) removeByBytes(this.records, key);
        for (const key of badDerived) this.derived.remove(key);
        for (const line of badCounts) removeByBytes(this.tokens, line);
      });
    }
    return damagedRecords === 0 && badDerived.length === 0 && badCounts.length === 0;
  }

  /**
   * Runs `action` in one synchronous transaction, or throws a StoreWriteError: when LMDB fails,
   * or when the disk lacks room for the most the transaction can write (`bytes` of keys and
   * values under `keys` keys): twice what it adds, as LMDB's pages are half full after a split,
   * and the pages it dirties, no more than the file holds. So a full disk is found before LMDB
   * writes, when nothing else fills it meanwhile.
   */
  private write(bytes: number, keys: number, action: () => void): void {
    let needed: number;
    let free: number;
    try {
      needed = SPARE_BYTES + 2 * bytes + Math.min(this.fileBytes(), PAGES_PER_KEY * keys * this.pageSize());
      free = freeBytes(dirname(this.location));
    } catch (error) {
      // The file or its folder gone under the run (another process removed them): no write can land.
      throw new StoreWriteError(describe(error));
    }
    if (free < needed) throw new StoreWriteError(noRoom(free, needed));
    try {
      this.root.transactionSync(action);
    } catch (error) {
      this.sound = false;
      throw new StoreWriteError(describe(error));
    }
    this.wrote = true;
    this.commits++;
  }

  /** The id of the last transaction committed to the store by any process (a fresh read). */
  private lastTxnId(): number {
    this.root.resetReadTxn();
    return (this.root.getStats() as { lastTxnId: number }).lastTxnId;
  }

  /** The data file's check stamp, or null when it cannot be had (the file gone under the run). */
  private stampNow(): string | null {
    try {
      return this.files.checkStamp();
    } catch {
      return null;
    }
  }

  private fileBytes(): number {
    return lstatSync(this.location).size;
  }

  private pageSize(): number {
    this.pageBytes ||= (this.root.getStats() as { pageSize: number }).pageSize;
    return this.pageBytes;
  }

  stamps(): StampTable {
    // One read where a run saved them at this generation; a damaged record's stamp is not in those.
    // Owned: the table reads them in place, and LMDB reuses the buffer of a read for the next.
    const saved = this.damaged.size === 0 ? this.derivedValue(STAMPS_KEY, { owned: true }) : undefined;
    const decoded = saved && StampTable.decode(saved);
    if (decoded) return decoded;
    const stamps: [string, StoredStamp][] = [];
    // Reading headers in place is twice as fast as a range that copies out every whole record.
    // A damaged record is listed by its key, which names no file: it is dropped, and its file parsed again.
    for (const key of this.records.getKeys()) {
      stamps.push([this.damaged.has(key) ? key : this.pathAt(key), this.damaged.has(key) ? DAMAGED_STAMP : recordStamp(this.records.getBinaryFast(key)!)]);
    }
    return StampTable.of(stamps);
  }

  /** The path a sound record's key stands for: the key itself, or the path its record holds. */
  private pathAt(key: string): string {
    return isDigestKey(key) ? decodeRecord(this.valueAt(key)!).path : key;
  }

  saveStamps(stamps: StampTable, generation: number): void {
    // Saved again when an older build saved them out of path order.
    if (this.damaged.size > 0 || (this.derivedValue(STAMPS_KEY) && stamps.sorted)) return;
    this.saveDerivedValues(new Map([[STAMPS_KEY, stamps.encode()]]), generation);
  }

  protected value(path: string): Uint8Array | undefined {
    return this.valueAt(recordKey(path));
  }

  private valueAt(key: string): Uint8Array | undefined {
    if (this.damaged.has(key)) return undefined;
    const stored = this.records.getBinaryFast(key);
    return stored?.subarray(0, stored.length - CRC_BYTES);
  }

  commit(values: ReadonlyMap<string, Uint8Array>, removals: readonly string[] = [], derivedStand = false): void {
    const stored = [...values].map(([path, value]) => {
      const withCrc = Buffer.alloc(value.length + CRC_BYTES);
      withCrc.set(value);
      withCrc.writeUInt32LE(crc32(value), value.length);
      return [recordKey(path), withCrc] as const;
    });
    const keys = [...removals.map(recordKey), ...stored.map(([key]) => key)];
    const bytes = stored.reduce((sum, [key, value]) => sum + key.length + value.length, 0);
    this.write(bytes, keys.length + 2, () => {
      for (const [key, value] of stored) this.records.put(key, value);
      for (const path of removals) this.records.remove(recordKey(path));
      const generation = this.generation();
      if (derivedStand) {
        const carried = Buffer.alloc(CARRIED_BYTES);
        carried.writeDoubleLE(generation + 1, 0);
        const from = this.standingGeneration(generation);
        carried.writeDoubleLE(from, 8);
        carried.writeDoubleLE(generation + 1 + from, 16);
        this.derived.put(CARRIED_KEY, carried);
      }
      const next = Buffer.alloc(GENERATION_BYTES);
      next.writeDoubleLE(generation + 1, 0);
      this.derived.put(GENERATION_KEY, next);
    });
    for (const key of keys) this.damaged.delete(key);
  }

  catchUp(): void {
    this.root.resetReadTxn();
  }

  /** The generation whose derived values (the stamps aside) stand at `generation`: itself, or the one restamp commits carried them from. */
  private standingGeneration(generation: number): number {
    const carried = this.derived.getBinaryFast(CARRIED_KEY);
    if (carried?.length !== CARRIED_BYTES) return generation;
    const view = new DataView(carried.buffer, carried.byteOffset, CARRIED_BYTES);
    const [applies, from] = [view.getFloat64(0, true), view.getFloat64(8, true)];
    // A damaged value stands for nothing: what it would carry is derived again.
    const sound = view.getFloat64(16, true) === applies + from && Number.isSafeInteger(from) && from >= 0 && from < applies;
    return sound && applies === generation ? from : generation;
  }

  generation(): number {
    const value = this.derived.getBinaryFast(GENERATION_KEY);
    const generation = value?.length === GENERATION_BYTES ? leadingDouble(value) : 0;
    return Number.isSafeInteger(generation) && generation >= 0 ? generation : 0;
  }

  derivedValue(key: DerivedKey, read?: DerivedRead): Uint8Array | undefined {
    const generation = this.generation();
    // Read before the value: each read may reuse the last one's buffer.
    const standing = key === STAMPS_KEY ? generation : this.standingGeneration(generation);
    const value = this.derivedBytes(key, read);
    if (!value || value.length < DERIVED_AT) return undefined;
    const stamped = leadingDouble(value);
    return stamped === generation || stamped === standing ? value.subarray(DERIVED_AT) : undefined;
  }

  lastDerivedValue(key: DerivedKey, read?: DerivedRead): { generation: number; value: Uint8Array } | undefined {
    const value = this.derivedBytes(key, read);
    return value && value.length >= DERIVED_AT ? { generation: leadingDouble(value), value: value.subarray(DERIVED_AT) } : undefined;
  }

  /** A derived value with its header; owned, a big one is read into a buffer of its own (LMDB's shared one would be copied from). */
  private derivedBytes(key: DerivedKey, read: DerivedRead | undefined): Uint8Array | undefined {
    return read?.owned ? this.derived.getBinary(key) : this.derived.getBinaryFast(key);
  }

  saveDerivedValues(values: ReadonlyMap<DerivedKey, Uint8Array>, generation: number, removals: readonly DerivedKey[] = []): void {
    const stored = [...values].map(([key, derived]) => {
      const value = withRoom(derived).fill(0, 0, DERIVED_AT);
      value.writeDoubleLE(generation, 0);
      value.writeUInt32LE(crc32(derived), DERIVED_CRC_AT);
      return [key, value] as const;
    });
    const bytes = stored.reduce((sum, [key, value]) => sum + key.length + value.length, 0);
    this.write(bytes, stored.length + removals.length, () => {
      // Read again in the transaction: another run may have committed since this one's snapshot.
      if (this.generation() !== generation) return;
      // Stamped with the generation whose values stand now: derived from the same bytes, they stand as long as those do.
      const standing = this.standingGeneration(generation);
      for (const key of removals) this.derived.remove(key);
      for (const [key, value] of stored) {
        if (key !== STAMPS_KEY) value.writeDoubleLE(standing, 0);
        this.derived.put(key, value);
      }
    });
  }

  derivedKeys(): DerivedKey[] {
    return [...this.derived.getKeys()].filter(isDerivedKey);
  }

  tokenCount(line: string): number | undefined {
    if (Buffer.byteLength(line) > MAX_KEY_BYTES) return undefined;
    const value = this.tokens.getBinaryFast(line);
    return value?.length === COUNT_BYTES ? uint32At(value, 0) : undefined;
  }

  saveTokenCounts(counts: ReadonlyMap<string, number>): void {
    const kept = [...counts].filter(([line]) => Buffer.byteLength(line) <= MAX_KEY_BYTES);
    const bytes = kept.reduce((sum, [line]) => sum + 3 * line.length + COUNT_BYTES, 0);
    this.write(bytes, kept.length, () => {
      for (const [line, count] of kept) {
        const value = Buffer.alloc(COUNT_BYTES);
        value.writeUInt32LE(count, 0);
        value.writeUInt32LE(crc32(line), 4);
        this.tokens.put(line, value);
      }
    });
  }

  gitHistory(): Uint8Array | undefined {
    return this.derived.get(GIT_HISTORY_KEY);
  }

  saveGitHistory(history: Uint8Array): void {
    this.write(history.byteLength, 1, () => this.derived.put(GIT_HISTORY_KEY, Buffer.from(history.buffer, history.byteOffset, history.byteLength)));
  }

  *portable(): Iterable<PortableValue> {
    const keys: [string, string][] = [];
    for (const key of this.records.getKeys()) if (!this.damaged.has(key)) keys.push([this.pathAt(key), key]);
    keys.sort(byPath);
    for (const [path, key] of keys) yield { kind: 'record', key: path, value: this.valueAt(key)! };
    for (const { key, value } of this.tokens.getRange()) {
      if (value.length === COUNT_BYTES) yield { kind: 'token-count', key, value: value.subarray(0, 4) };
    }
    for (const key of this.derivedKeys()) {
      const value = isPortableKey(key) ? this.derivedValue(key) : undefined;
      if (value) yield { kind: 'derived', key, value };
    }
  }

  /** Everything it holds that is sound, copied out (a Buffer's slice would not copy), under the paths the records stand for. */
  contents(): StoreContents {
    const values = new Map<string, Uint8Array>();
    for (const key of this.records.getKeys()) {
      if (!this.damaged.has(key)) values.set(this.pathAt(key), new Uint8Array(this.valueAt(key)!));
    }
    const tokenCounts = new Map<string, number>();
    for (const { key, value } of this.tokens.getRange()) if (value.length === COUNT_BYTES) tokenCounts.set(key, uint32At(value, 0));
    const derived = new Map<DerivedKey, Uint8Array>();
    for (const key of this.derivedKeys()) {
      const value = this.derivedValue(key);
      if (value) derived.set(key, new Uint8Array(value));
    }
    return { values, tokenCounts, derived, generation: this.generation(), history: this.gitHistory() };
  }

  async close(): Promise<void> {
    let sound: string | null = null;
    if (this.wrote && this.sound) {
      await this.root.flushed;
      // Sound when opened, and every commit since was this run's: the next run need not check what they wrote.
      if (this.lastTxnId() === this.soundTxn + this.commits) sound = this.stampNow();
    }
    await this.root.close();
    // Noted only when the file is as it was then: another process's write since shows in its stamp.
    if (sound !== null) this.files.noteChecked(sound);
  }
}

/** Our handles' keys are strings, but ordered-binary writes a byte key as it is: the one way to remove a key that is no string. */
function removeByBytes(database: LmdbDatabase, key: Buffer): void {
  database.remove(key as unknown as string);
}

/** Free bytes an unprivileged writer may use on the disk holding `dir`; Infinity where the system does not say. */
function freeBytes(dir: string): number {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The store on disk until a write to it fails: then, with one warning, what it holds goes on in
 * memory, and the store on disk is closed unwritten (LMDB hangs closing a store written again
 * after a failed commit). The switch is made before the failed write returns, so no other write
 * reaches the disk after it.
 */
class FallbackTagStore implements TagStore {
  private memory: MemoryTagStore | null = null;
  private diskClosed: Promise<void> | null = null;

  constructor(
    private readonly disk: LmdbTagStore,
    private readonly warn: (message: string) => void,
  ) {}

  get location(): string | null {
    return this.memory ? null : this.disk.location;
  }

  private get reader(): LmdbTagStore | MemoryTagStore {
    return this.memory ?? this.disk;
  }

  stamps(): StampTable {
    return this.reader.stamps();
  }

  get(path: string): FileRecord | undefined {
    return this.reader.get(path);
  }

  storedContent(path: string): string | undefined {
    return this.reader.storedContent(path);
  }

  restamped(path: string, stamp: FileStamp): Uint8Array | undefined {
    return this.reader.restamped(path, stamp);
  }

  renderPart(path: string): RenderPart | undefined {
    return this.reader.renderPart(path);
  }

  references(path: string): References | undefined {
    return this.reader.references(path);
  }

  rankPart(path: string): RankPart | undefined {
    return this.reader.rankPart(path);
  }

  definitions(path: string): Definition[] | undefined {
    return this.reader.definitions(path);
  }

  definitionCount(path: string): number | undefined {
    return this.reader.definitionCount(path);
  }

  generation(): number {
    return this.reader.generation();
  }

  catchUp(): void {
    this.reader.catchUp();
  }

  derivedValue(key: DerivedKey, read?: DerivedRead): Uint8Array | undefined {
    return this.reader.derivedValue(key, read);
  }

  lastDerivedValue(key: DerivedKey, read?: DerivedRead): { generation: number; value: Uint8Array } | undefined {
    return this.reader.lastDerivedValue(key, read);
  }

  tokenCount(line: string): number | undefined {
    return this.reader.tokenCount(line);
  }

  gitHistory(): Uint8Array | undefined {
    return this.reader.gitHistory();
  }

  async commit(values: ReadonlyMap<string, Uint8Array>, removals?: readonly string[], derivedStand?: boolean): Promise<void> {
    // A turn later: parseInPool sends out the next shard before this waits on the disk.
    await Promise.resolve();
    if (!this.wrote((disk) => disk.commit(values, removals, derivedStand))) await this.memory!.commit(values, removals, derivedStand);
  }

  async saveStamps(stamps: StampTable, generation: number): Promise<void> {
    if (!this.wrote((disk) => disk.saveStamps(stamps, generation))) await this.memory!.saveStamps();
  }

  async saveDerivedValues(values: ReadonlyMap<DerivedKey, Uint8Array>, generation: number, removals: readonly DerivedKey[] = []): Promise<void> {
    if (!this.wrote((disk) => disk.saveDerivedValues(values, generation, removals))) await this.memory!.saveDerivedValues(values, generation, removals);
  }

  derivedKeys(): DerivedKey[] {
    return this.reader.derivedKeys();
  }

  async saveTokenCounts(counts: ReadonlyMap<string, number>): Promise<void> {
    if (!this.wrote((disk) => disk.saveTokenCounts(counts))) await this.memory!.saveTokenCounts(counts);
  }

  async saveGitHistory(history: Uint8Array): Promise<void> {
    if (!this.wrote((disk) => disk.saveGitHistory(history))) await this.memory!.saveGitHistory(history);
  }

  portable(): Iterable<PortableValue> {
    return this.reader.portable();
  }

  async close(): Promise<void> {
    this.diskClosed ??= this.disk.close();
    await this.diskClosed;
  }

  /** Whether `write` was made on disk; false when the store is (from now on) in memory. */
  private wrote(write: (disk: LmdbTagStore) => void): boolean {
    if (this.memory) return false;
    try {
      write(this.disk);
      return true;
    } catch (error) {
      if (!(error instanceof StoreWriteError)) throw error;
      this.warn(`cannot write tag store ${this.disk.location} (${error.message}); keeping tags in memory`);
      this.memory = new MemoryTagStore(this.disk.contents());
      this.diskClosed = this.disk.close();
      return false;
    }
  }
}

/** lmdb-js hands large values over as plain Uint8Arrays, without Buffer's readers. */
/** `derived` with room for the header before it: its own buffer when derivedValueRoom made it, else a copy. */
function withRoom(derived: Uint8Array): Buffer {
  if (derived.byteOffset === DERIVED_AT && derived.buffer.byteLength === DERIVED_AT + derived.length && ROOMY_BUFFERS.has(derived.buffer)) {
    return Buffer.from(derived.buffer, 0, DERIVED_AT + derived.length);
  }
  // Not zero-filled first: every byte is written (the tables at 93,200 files are 413 MB).
  const value = Buffer.allocUnsafeSlow(DERIVED_AT + derived.length);
  value.set(derived, DERIVED_AT);
  return value;
}

function leadingDouble(value: Uint8Array): number {
  return new DataView(value.buffer, value.byteOffset, value.byteLength).getFloat64(0, true);
}

function uint32At(value: Uint8Array, at: number): number {
  return new DataView(value.buffer, value.byteOffset, value.byteLength).getUint32(at, true);
}

/** The value kept, or a copy for a caller that will own it. */
function ownedIf(read: DerivedRead | undefined, value: Uint8Array): Uint8Array {
  return read?.owned ? new Uint8Array(value) : value;
}

class MemoryTagStore extends RecordReader implements TagStore {
  readonly location = null;
  private readonly values: Map<string, Uint8Array>;
  private readonly tokenCounts: Map<string, number>;
  /** Counts commits from the generation of the store it goes on from, whose derived values hold until the next. */
  private commits: number;
  private readonly derivedValues = new Map<DerivedKey, { generation: number; value: Uint8Array }>();
  private history: Uint8Array | undefined;

  constructor(from?: StoreContents) {
    super();
    this.values = from?.values ?? new Map();
    this.tokenCounts = from?.tokenCounts ?? new Map();
    this.commits = from?.generation ?? 0;
    for (const [key, value] of from?.derived ?? []) this.derivedValues.set(key, { generation: this.commits, value });
    this.history = from?.history;
  }

  stamps(): StampTable {
    return StampTable.of([...this.values].map(([path, value]) => [path, recordStamp(value)] as const));
  }

  /** Stamps in memory cost nothing to read again. */
  async saveStamps(): Promise<void> {}

  protected value(path: string): Uint8Array | undefined {
    return this.values.get(path);
  }

  async commit(values: ReadonlyMap<string, Uint8Array>, removals: readonly string[] = [], derivedStand = false): Promise<void> {
    for (const [path, value] of values) this.values.set(path, value);
    for (const path of removals) this.values.delete(path);
    this.commits++;
    if (!derivedStand) return;
    for (const saved of this.derivedValues.values()) if (saved.generation === this.commits - 1) saved.generation = this.commits;
  }

  generation(): number {
    return this.commits;
  }

  catchUp(): void {}

  derivedValue(key: DerivedKey, read?: DerivedRead): Uint8Array | undefined {
    const saved = this.derivedValues.get(key);
    return saved?.generation === this.commits ? ownedIf(read, saved.value) : undefined;
  }

  lastDerivedValue(key: DerivedKey, read?: DerivedRead): { generation: number; value: Uint8Array } | undefined {
    const saved = this.derivedValues.get(key);
    return saved && { generation: saved.generation, value: ownedIf(read, saved.value) };
  }

  async saveDerivedValues(values: ReadonlyMap<DerivedKey, Uint8Array>, generation: number, removals: readonly DerivedKey[] = []): Promise<void> {
    if (generation !== this.commits) return;
    for (const key of removals) this.derivedValues.delete(key);
    for (const [key, value] of values) this.derivedValues.set(key, { generation, value });
  }

  derivedKeys(): DerivedKey[] {
    return [...this.derivedValues.keys()];
  }

  tokenCount(line: string): number | undefined {
    return this.tokenCounts.get(line);
  }

  async saveTokenCounts(counts: ReadonlyMap<string, number>): Promise<void> {
    for (const [line, count] of counts) this.tokenCounts.set(line, count);
  }

  gitHistory(): Uint8Array | undefined {
    return this.history;
  }

  *portable(): Iterable<PortableValue> {
    for (const [path, value] of [...this.values].sort(byPath)) yield { kind: 'record', key: path, value };
    for (const [line, count] of this.tokenCounts) yield { kind: 'token-count', key: line, value: portableCount(count) };
    for (const [key, saved] of this.derivedValues)
      if (saved.generation === this.commits && isPortableKey(key)) yield { kind: 'derived', key, value: saved.value };
  }

  async saveGitHistory(history: Uint8Array): Promise<void> {
    this.history = history;
  }

  async close(): Promise<void> {}
}
