import { createRequire } from 'node:module';
import type { Packr as PackrClass } from 'msgpackr';
import { type FileRecord, type RankPart, type RenderPart, renderPartOf, type SkipReason } from './fileRecord.js';

/**
 * A stored value: a fixed header (the file's mtime and size, its tag counts, skip reason and the
 * lengths of the parts), then the FileRecord in three parts: what a rendering reads
 * (RenderPart) and what ranking reads (RankPart), both as JSON, then the rest, msgpack-encoded.
 * Staleness checks and index summaries read only the header; a map decodes only the render parts
 * of the files it shows, and rebuilding the identifier tables only the rank parts. JSON.parse is
 * native where msgpackr's decoder runs cold in a one-shot process (go-500's 15 shown files' render
 * parts: 0.4 ms against 2.7-4.6 ms; all its rank parts: 9 ms against 70 for whole records).
 */
const HEADER_BYTES = 40;
const RENDER_BYTES_AT = 28;
const RANK_BYTES_AT = 32;

export interface StoredStamp {
  mtimeMs: number;
  size: number;
  definitions: number;
  references: number;
  skipped: SkipReason | null;
}

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
  const { Packr } = createRequire(import.meta.url)('msgpackr/index-no-eval') as { Packr: typeof PackrClass };
  // Bundled strings: measured on python-500, packing 38% and unpacking 57% faster than plain records.
  return new Packr({ useRecords: true, bundleStrings: true });
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

export function encodeRecord(record: FileRecord): Uint8Array {
  const { lineCount, lineNumbers, lineTexts, signatures, definitions, referenceCounts, imports, packageName, terms, ...rest } = record;
  const render = textEncoder.encode(JSON.stringify(renderPartOf(record)));
  const rankPart: RankPart = { definitions, referenceCounts, imports, packageName, terms };
  const rank = textEncoder.encode(JSON.stringify(rankPart));
  const body = recordPackr().pack(rest);
  const value = new Uint8Array(HEADER_BYTES + render.length + rank.length + body.length);
  const view = new DataView(value.buffer);
  view.setFloat64(0, record.mtimeMs, true);
  view.setFloat64(8, record.size, true);
  view.setUint32(16, record.definitions.length, true);
  view.setUint32(20, record.references.names.length, true);
  view.setUint8(24, SKIP_REASONS.indexOf(record.skipped));
  view.setUint32(RENDER_BYTES_AT, render.length, true);
  view.setUint32(RANK_BYTES_AT, rank.length, true);
  value.set(render, HEADER_BYTES);
  value.set(rank, HEADER_BYTES + render.length);
  value.set(body, HEADER_BYTES + render.length + rank.length);
  return value;
}

export function decodeRecord(value: Uint8Array): FileRecord {
  const { lineCount, lineNumbers, lineTexts, signatures } = decodeRenderPart(value);
  const { definitions, referenceCounts, imports, packageName, terms } = decodeRankPart(value);
  const { rankEnd } = partBounds(value);
  const rest = recordPackr().unpack(value.subarray(rankEnd)) as Omit<FileRecord, 'lineCount' | 'lineNumbers' | 'lineTexts' | 'signatures' | keyof RankPart>;
  return { ...rest, definitions, referenceCounts, imports, packageName, terms, lineCount, lineNumbers, lineTexts, signatures };
}

export function decodeRenderPart(value: Uint8Array): RenderPart {
  return JSON.parse(textDecoder.decode(value.subarray(HEADER_BYTES, partBounds(value).renderEnd))) as RenderPart;
}

export function decodeRankPart(value: Uint8Array): RankPart {
  const { renderEnd, rankEnd } = partBounds(value);
  return JSON.parse(textDecoder.decode(value.subarray(renderEnd, rankEnd))) as RankPart;
}

function partBounds(value: Uint8Array): { renderEnd: number; rankEnd: number } {
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const renderEnd = HEADER_BYTES + view.getUint32(RENDER_BYTES_AT, true);
  return { renderEnd, rankEnd: renderEnd + view.getUint32(RANK_BYTES_AT, true) };
}

export function recordStamp(value: Uint8Array): StoredStamp {
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  return {
    mtimeMs: view.getFloat64(0, true),
    size: view.getFloat64(8, true),
    definitions: view.getUint32(16, true),
    references: view.getUint32(20, true),
    skipped: SKIP_REASONS[view.getUint8(24)] ?? null,
  };
}
