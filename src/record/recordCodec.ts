import { Packr } from 'msgpackr';
import type { FileRecord, SkipReason } from './fileRecord.js';

/**
 * A stored value: a fixed header (the file's mtime and size, its tag counts and skip reason), then
 * the msgpack-encoded FileRecord. Staleness checks and index summaries read only the header.
 */
const HEADER_BYTES = 32;

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

// Bundled strings: measured on python-500, packing 38% and unpacking 57% faster than plain records.
const packr = new Packr({ useRecords: true, bundleStrings: true });

export function encodeRecord(record: FileRecord): Uint8Array {
  const body = packr.pack(record);
  const value = new Uint8Array(HEADER_BYTES + body.length);
  const view = new DataView(value.buffer);
  view.setFloat64(0, record.mtimeMs, true);
  view.setFloat64(8, record.size, true);
  view.setUint32(16, record.definitions.length, true);
  view.setUint32(20, record.references.names.length, true);
  view.setUint8(24, SKIP_REASONS.indexOf(record.skipped));
  value.set(body, HEADER_BYTES);
  return value;
}

export function decodeRecord(value: Uint8Array): FileRecord {
  return packr.unpack(value.subarray(HEADER_BYTES)) as FileRecord;
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
