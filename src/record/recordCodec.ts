import { createRequire } from 'node:module';
import type { Packr as PackrClass } from 'msgpackr';
import {
  type Definition,
  type FileRecord,
  type FileStamp,
  type RankPart,
  type References,
  type RenderPart,
  renderPartOf,
  type SkipReason,
} from './fileRecord.js';

/**
 * A stored value: a fixed header (the file's stamp, the parse limit it was made under, its tag
 * counts, skip reason and the lengths of the parts), then the FileRecord in five parts: what a
 * rendering reads (RenderPart) and what ranking reads (RankPart) but its terms, both as JSON; the
 * terms' hashes then their counts, as 32-bit integers in the platform's byte order (as the
 * stored tables are); the references, as JSON; then the rest, msgpack-encoded.
 * Staleness checks and index summaries read only the header; a map decodes only the render parts
 * of the files it shows, rebuilding the identifier tables only the rank parts, and `find`, `refs`
 * and `at` only the references of the files they list. JSON.parse is native where msgpackr's
 * decoder runs cold in a one-shot process (go-500's 15 shown files' render parts: 0.4 ms against
 * 2.7-4.6 ms; all its rank parts: 9 ms against 70 for whole records; a 10,000-line file's 3,629
 * references: 0.6 ms against 3-4.6 ms).
 */
const MTIME_AT = 0;
const SIZE_AT = 8;
const DEFINITIONS_AT = 16;
const REFERENCES_AT = 20;
const SKIPPED_AT = 24;
const RETRIES_AT = 25;
const RENDER_BYTES_AT = 28;
const RANK_BYTES_AT = 32;
const TERMS_AT = 36;
const FILE_TIMEOUT_AT = 40;
const CTIME_AT = 48;
const INO_AT = 56;
const REFERENCES_BYTES_AT = 64;
/** The stamp's fields end here: a store's stamps value keeps each record's header to this byte. */
const STAMP_BYTES = 72;
/** 20 bytes, all zero when the record has no content id. */
const CONTENT_AT = 72;
const CONTENT_BYTES = 20;
const HEADER_BYTES = 96;

export interface StoredStamp extends FileStamp {
  definitions: number;
  references: number;
  skipped: SkipReason | null;
  /** The `fileTimeoutMs` of the run that made the record. */
  fileTimeoutMs: number;
  /** How many runs in a row retried the unchanged file and got the same skip reason again. */
  retries: number;
}

/** A stored stamp equal to no file's (its times, size and inode NaN): a record under it is read again. */
export const UNMATCHED_STAMP: StoredStamp = {
  mtimeMs: Number.NaN,
  size: Number.NaN,
  ctimeMs: Number.NaN,
  ino: Number.NaN,
  definitions: 0,
  references: 0,
  skipped: null,
  fileTimeoutMs: 0,
  retries: 0,
};

const SKIP_REASONS: readonly (SkipReason | null)[] = [
  null,
  'no-grammar',
  'empty',
  'too-large',
  'binary',
  'invalid-utf8',
  'unreadable',
  'timeout',
  'worker-error',
  'quarantined',
  'not-regular',
  'outside-root',
];

/**
 * msgpackr's plain JavaScript build, not its Node entry: that one loads the native string
 * extractor unless the process's environment says not to, which costs 5 ms of every run and
 * decodes our records no faster (bundled strings; all of go-500 in 33 ms either way). This build
 * also does without the readers msgpackr generates for record shapes it reads often: it writes
 * the same bytes, and unpacks all of mixed-500's records in the same 20–30 ms.
 * Required on first use, not imported: a warm map decodes no whole record.
 */
let packr: PackrClass | undefined;

/** Loads msgpackr now, not on the first whole record: a worker starts while the coordinator still finds the files. */
export function prepareRecordCodec(): void {
  recordPackr();
}

function recordPackr(): PackrClass {
  packr ??= loadPackr();
  return packr;
}

function loadPackr(): PackrClass {
  const { Packr } = createRequire(import.meta.url)('msgpackr') as { Packr: typeof PackrClass };
  // The msgpackr lmdb loads, not a second copy (index-no-eval: 1–4% slower at and find, paired).
  // Bundled strings: measured on python-500, packing 38% and unpacking 57% faster than plain records.
  return new Packr({ useRecords: true, bundleStrings: true });
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();
/** Where a value is put together before its one copy out: JSON is encoded in one pass, without measuring it first. */
let scratch = new Uint8Array(1 << 16);

export function encodeRecord(record: FileRecord): Uint8Array {
  // The stamp's ctime and inode and the content id are the header's alone: the msgpack part keeps the shape stores of this RECORD_VERSION hold.
  const {
    lineCount,
    lineNumbers,
    lineTexts,
    signatures,
    definitions,
    referenceCounts,
    imports,
    packageName,
    terms,
    references,
    ctimeMs,
    ino,
    content,
    ...rest
  } = record;
  const render = JSON.stringify(renderPartOf(record));
  const rankJson: Omit<RankPart, 'terms'> = { definitions, referenceCounts, imports, packageName };
  const rank = JSON.stringify(rankJson);
  const referencesJson = JSON.stringify(references);
  const body = recordPackr().pack(rest);
  const termBytes = 8 * terms.hashes.length;
  // A UTF-16 unit takes at most 3 bytes of UTF-8.
  const most = HEADER_BYTES + 3 * (render.length + rank.length + referencesJson.length) + termBytes + body.length;
  if (most > scratch.length) scratch = new Uint8Array(Math.max(most, 2 * scratch.length));
  scratch.fill(0, 0, HEADER_BYTES);
  const renderBytes = textEncoder.encodeInto(render, scratch.subarray(HEADER_BYTES)).written;
  const rankBytes = textEncoder.encodeInto(rank, scratch.subarray(HEADER_BYTES + renderBytes)).written;
  let at = HEADER_BYTES + renderBytes + rankBytes;
  scratch.set(asBytes(terms.hashes), at);
  scratch.set(asBytes(terms.counts), at + termBytes / 2);
  at += termBytes;
  const referencesBytes = textEncoder.encodeInto(referencesJson, scratch.subarray(at)).written;
  at += referencesBytes;
  scratch.set(body, at);
  const value = scratch.slice(0, at + body.length);
  const view = new DataView(value.buffer);
  // The rest of the header is the coordinator's to write (stampRecord).
  view.setFloat64(MTIME_AT, record.mtimeMs, true);
  view.setFloat64(SIZE_AT, record.size, true);
  view.setFloat64(CTIME_AT, ctimeMs, true);
  view.setFloat64(INO_AT, ino, true);
  view.setUint32(DEFINITIONS_AT, record.definitions.length, true);
  view.setUint32(REFERENCES_AT, record.references.names.length, true);
  view.setUint8(SKIPPED_AT, SKIP_REASONS.indexOf(record.skipped));
  view.setUint32(RENDER_BYTES_AT, renderBytes, true);
  view.setUint32(RANK_BYTES_AT, rankBytes, true);
  view.setUint32(TERMS_AT, terms.hashes.length, true);
  view.setUint32(REFERENCES_BYTES_AT, referencesBytes, true);
  if (content !== '') value.set(Buffer.from(content, 'hex').subarray(0, CONTENT_BYTES), CONTENT_AT);
  return value;
}

/** A record's content id, from its header; '' when it has none. */
export function recordContent(value: Uint8Array): string {
  const id = value.subarray(CONTENT_AT, CONTENT_AT + CONTENT_BYTES);
  return id.some((byte) => byte !== 0) ? Buffer.from(id).toString('hex') : '';
}

/** A copy of a stored record for the same bytes found under another stamp (a touched or checked-out file). */
export function restampRecord(value: Uint8Array, stamp: FileStamp): Uint8Array {
  const copy = new Uint8Array(value);
  const view = new DataView(copy.buffer);
  view.setFloat64(MTIME_AT, stamp.mtimeMs, true);
  view.setFloat64(SIZE_AT, stamp.size, true);
  view.setFloat64(CTIME_AT, stamp.ctimeMs, true);
  view.setFloat64(INO_AT, stamp.ino, true);
  return copy;
}

function asBytes(array: Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

export function decodeRecord(value: Uint8Array): FileRecord {
  const { lineCount, lineNumbers, lineTexts, signatures } = decodeRenderPart(value);
  const { definitions, referenceCounts, imports, packageName, terms } = decodeRankPart(value);
  const references = decodeReferences(value);
  const rest = recordPackr().unpack(value.subarray(partBounds(value).referencesEnd)) as Omit<
    FileRecord,
    'lineCount' | 'lineNumbers' | 'lineTexts' | 'signatures' | 'ctimeMs' | 'ino' | 'content' | 'references' | keyof RankPart
  >;
  const { ctimeMs, ino } = recordStamp(value);
  const content = recordContent(value);
  return {
    ...rest,
    ctimeMs,
    ino,
    content,
    definitions,
    referenceCounts,
    imports,
    packageName,
    terms,
    references,
    lineCount,
    lineNumbers,
    lineTexts,
    signatures,
  };
}

/** The record's references alone. */
export function decodeReferences(value: Uint8Array): References {
  const { termsEnd, referencesEnd } = partBounds(value);
  return JSON.parse(textDecoder.decode(value.subarray(termsEnd, referencesEnd))) as References;
}

export function decodeRenderPart(value: Uint8Array): RenderPart {
  return JSON.parse(textDecoder.decode(value.subarray(HEADER_BYTES, partBounds(value).renderEnd))) as RenderPart;
}

export function decodeRankPart(value: Uint8Array): RankPart {
  const { renderEnd, rankEnd, termsEnd } = partBounds(value);
  const rank = JSON.parse(textDecoder.decode(value.subarray(renderEnd, rankEnd))) as Omit<RankPart, 'terms'>;
  // Copied out (a Buffer's slice would not copy), so that the integers are aligned whatever the value's offset.
  const terms = new Uint8Array(value.subarray(rankEnd, termsEnd));
  const half = terms.length / 2;
  return { ...rank, terms: { hashes: new Int32Array(terms.buffer, 0, half / 4), counts: new Int32Array(terms.buffer, half, half / 4) } };
}

/**
 * What a rank part's JSON holds around its definitions (see encodeRecord): inside a JSON string
 * quotes are escaped, so the key after them is found only where they end.
 */
const BEFORE_DEFINITIONS = Buffer.from('{"definitions":');
const AFTER_DEFINITIONS = Buffer.from(',"referenceCounts":');

/** A stored record's definitions alone: the array in its rank part's JSON, none of its references, imports or terms. */
export function decodeDefinitions(value: Uint8Array): Definition[] {
  const { renderEnd, rankEnd } = partBounds(value);
  const rank = Buffer.from(value.buffer, value.byteOffset + renderEnd, rankEnd - renderEnd);
  const end = rank.indexOf(AFTER_DEFINITIONS);
  if (end === -1 || !rank.subarray(0, BEFORE_DEFINITIONS.length).equals(BEFORE_DEFINITIONS)) {
    return (JSON.parse(textDecoder.decode(rank)) as Pick<RankPart, 'definitions'>).definitions;
  }
  return JSON.parse(textDecoder.decode(rank.subarray(BEFORE_DEFINITIONS.length, end))) as Definition[];
}

function partBounds(value: Uint8Array): { renderEnd: number; rankEnd: number; termsEnd: number; referencesEnd: number } {
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const renderEnd = HEADER_BYTES + view.getUint32(RENDER_BYTES_AT, true);
  const rankEnd = renderEnd + view.getUint32(RANK_BYTES_AT, true);
  const termsEnd = rankEnd + 8 * view.getUint32(TERMS_AT, true);
  const referencesEnd = termsEnd + view.getUint32(REFERENCES_BYTES_AT, true);
  if (referencesEnd > value.length) throw new RangeError(`a stored record of ${value.length} bytes says its parts end at ${referencesEnd}`);
  return { renderEnd, rankEnd, termsEnd, referencesEnd };
}

/** Whether a value from outside a store (an artifact) has a record's shape: a header, its parts within it, a known skip reason. */
export function wellFormedRecord(value: Uint8Array): boolean {
  if (value.length < HEADER_BYTES) return false;
  try {
    partBounds(value);
  } catch {
    return false;
  }
  return value[SKIPPED_AT]! < SKIP_REASONS.length;
}

export function recordStamp(value: Uint8Array): StoredStamp {
  return stampAt(new DataView(value.buffer, value.byteOffset, value.byteLength), 0);
}

/** The stamp whose header starts at `at` in `view`. */
function stampAt(view: DataView, at: number): StoredStamp {
  return {
    mtimeMs: view.getFloat64(at + MTIME_AT, true),
    size: view.getFloat64(at + SIZE_AT, true),
    ctimeMs: view.getFloat64(at + CTIME_AT, true),
    ino: view.getFloat64(at + INO_AT, true),
    definitions: view.getUint32(at + DEFINITIONS_AT, true),
    references: view.getUint32(at + REFERENCES_AT, true),
    skipped: SKIP_REASONS[view.getUint8(at + SKIPPED_AT)] ?? null,
    fileTimeoutMs: view.getFloat64(at + FILE_TIMEOUT_AT, true),
    retries: view.getUint8(at + RETRIES_AT),
  };
}

/** Whether two stamps are of the same file, unchanged. */
export function sameFile(a: FileStamp, b: FileStamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/**
 * Writes into an encoded record the run's `fileTimeoutMs`; and, when it retries an unchanged file
 * (`previous` is its last record) and gets the same skip reason, one more retry. The file's stamp
 * is the record's own: whoever made it saw the file.
 */
export function stampRecord(value: Uint8Array, fileTimeoutMs: number, previous: StoredStamp | undefined): void {
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  view.setFloat64(FILE_TIMEOUT_AT, fileTimeoutMs, true);
  const skipped = SKIP_REASONS[view.getUint8(SKIPPED_AT)] ?? null;
  const retried = previous !== undefined && skipped !== null && previous.skipped === skipped && sameFile(previous, recordStamp(value));
  view.setUint8(RETRIES_AT, retried ? Math.min(previous.retries + 1, 255) : 0);
}

/**
 * Every record's stamp in one value, for a store's generation (see TagStore.stamps): a count,
 * each stamp as the first STAMP_BYTES of a record header (read back by recordStamp), then the
 * paths, NUL-separated.
 */
export function encodeStamps(stamps: ReadonlyMap<string, StoredStamp>): Uint8Array {
  const paths = textEncoder.encode([...stamps.keys()].join('\0'));
  const out = new Uint8Array(STAMP_ROWS_AT + stamps.size * STAMP_BYTES + paths.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, stamps.size, true);
  let row = 0;
  for (const stamp of stamps.values()) writeStampRow(view, row++, stamp);
  out.set(paths, STAMP_ROWS_AT + stamps.size * STAMP_BYTES);
  return out;
}

/** Where encodeStamps' rows begin, each STAMP_ROW_BYTES long. */
export const STAMP_ROWS_AT = 8;
export const STAMP_ROW_BYTES = STAMP_BYTES;

/** Writes `stamp` as row `row` of encodeStamps' bytes. */
export function writeStampRow(view: DataView, row: number, stamp: StoredStamp): void {
  const at = STAMP_ROWS_AT + row * STAMP_BYTES;
  view.setFloat64(at + MTIME_AT, stamp.mtimeMs, true);
  view.setFloat64(at + SIZE_AT, stamp.size, true);
  view.setFloat64(at + CTIME_AT, stamp.ctimeMs, true);
  view.setFloat64(at + INO_AT, stamp.ino, true);
  view.setUint32(at + DEFINITIONS_AT, stamp.definitions, true);
  view.setUint32(at + REFERENCES_AT, stamp.references, true);
  view.setUint8(at + SKIPPED_AT, SKIP_REASONS.indexOf(stamp.skipped));
  view.setUint8(at + RETRIES_AT, stamp.retries);
  view.setFloat64(at + FILE_TIMEOUT_AT, stamp.fileTimeoutMs, true);
}

/** What encodeStamps wrote, read in place (see StampTable): the paths, and the stamp of the i-th in row i of `view` (see storedStampAt); null for bytes it did not write. */
export function decodeStampRows(value: Uint8Array): { paths: string[]; view: DataView } | null {
  if (value.length < 8) return null;
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const count = view.getUint32(0, true);
  const pathsAt = STAMP_ROWS_AT + count * STAMP_BYTES;
  if (pathsAt > value.length) return null;
  const paths = count === 0 ? [] : textDecoder.decode(value.subarray(pathsAt)).split('\0');
  return paths.length === count ? { paths, view } : null;
}

/** The stamp in row `row` of decodeStampRows' view. */
export function storedStampAt(view: DataView, row: number): StoredStamp {
  return stampAt(view, STAMP_ROWS_AT + row * STAMP_BYTES);
}
