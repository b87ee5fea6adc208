/**
 * The index artifact: one file that moves a tag store to another machine or tree (`repomap
 * export`, `import`, `merge`). A fixed header, then the payload: a run of frames, Brotli-compressed.
 *
 * Header, 64 bytes, little-endian:
 *   0   8 bytes  ARTIFACT_MAGIC
 *   8   u16      ARTIFACT_VERSION
 *   10  u16      RECORD_VERSION of the records inside
 *   12  u8       byte order of the integer arrays inside records and tables (1: little-endian)
 *   16  f64      payload bytes (compressed)
 *   24  f64      frame bytes (inflated)
 *   32  32 bytes SHA-256 of the payload
 * Frame: u8 kind, u32 key bytes, u32 value bytes, the key (UTF-8), the value. Records come in
 * path order, then token counts, then derived values; an `end` frame closes the run.
 */
import { RECORD_VERSION } from '../record/fileRecord.js';

export const ARTIFACT_MAGIC = Buffer.from('RPMAPIDX', 'latin1');
/** Bumped whenever the header or the frames change shape; a record version bump is the header's own field. */
export const ARTIFACT_VERSION = 1;
export const HEADER_BYTES = 64;
const VERSION_AT = 8;
const RECORD_VERSION_AT = 10;
const BYTE_ORDER_AT = 12;
const PAYLOAD_BYTES_AT = 16;
const FRAME_BYTES_AT = 24;
const CHECKSUM_AT = 32;
export const CHECKSUM_BYTES = 32;
const LITTLE_ENDIAN = 1;

export const FRAME_HEAD_BYTES = 9;
/** A key is a relative path, a rendered line or a derived value's name: the store keeps none longer. */
export const MAX_KEY_BYTES = 64 * 1024;
/** A record of a file at the largest --max-file-bytes is far below this. */
export const MAX_VALUE_BYTES = 1024 ** 3;
/** What inflating an artifact may produce at most: a bound on a payload that inflates without end. */
export const MAX_FRAME_BYTES = 64 * 1024 ** 3;

export type FrameKind = 'record' | 'token-count' | 'derived' | 'end';
export const FRAME_KINDS: readonly FrameKind[] = ['end', 'record', 'token-count', 'derived'];

export interface ArtifactFrame {
  kind: FrameKind;
  /** A record's path, a token count's line, a derived value's name; '' for `end`. */
  key: string;
  /** Valid only while the frame is visited. */
  value: Uint8Array;
}

/** How many frames of each kind an artifact holds, as its `end` frame says (three u32). */
export interface ArtifactCounts {
  records: number;
  tokenCounts: number;
  derived: number;
}

export const END_VALUE_BYTES = 12;

export function encodeEnd(counts: ArtifactCounts): Uint8Array {
  const value = Buffer.alloc(END_VALUE_BYTES);
  value.writeUInt32LE(counts.records, 0);
  value.writeUInt32LE(counts.tokenCounts, 4);
  value.writeUInt32LE(counts.derived, 8);
  return value;
}

export function decodeEnd(value: Uint8Array): ArtifactCounts | null {
  if (value.length !== END_VALUE_BYTES) return null;
  const view = Buffer.from(value.buffer, value.byteOffset, value.length);
  return { records: view.readUInt32LE(0), tokenCounts: view.readUInt32LE(4), derived: view.readUInt32LE(8) };
}

export function frameHead(kind: FrameKind, keyBytes: number, valueBytes: number): Buffer {
  const head = Buffer.alloc(FRAME_HEAD_BYTES);
  head.writeUInt8(FRAME_KINDS.indexOf(kind), 0);
  head.writeUInt32LE(keyBytes, 1);
  head.writeUInt32LE(valueBytes, 5);
  return head;
}

export interface ArtifactHeader {
  payloadBytes: number;
  frameBytes: number;
  checksum: Buffer;
}

export function encodeHeader({ payloadBytes, frameBytes, checksum }: ArtifactHeader): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  ARTIFACT_MAGIC.copy(header, 0);
  header.writeUInt16LE(ARTIFACT_VERSION, VERSION_AT);
  header.writeUInt16LE(RECORD_VERSION, RECORD_VERSION_AT);
  header.writeUInt8(LITTLE_ENDIAN, BYTE_ORDER_AT);
  header.writeDoubleLE(payloadBytes, PAYLOAD_BYTES_AT);
  header.writeDoubleLE(frameBytes, FRAME_BYTES_AT);
  checksum.copy(header, CHECKSUM_AT);
  return header;
}

/** The header of an artifact of `fileBytes` bytes, or why it is none this repomap reads (a phrase: "is not …", "was written by …"). */
export function decodeHeader(header: Buffer, fileBytes: number): ArtifactHeader | string {
  if (header.length < HEADER_BYTES || !header.subarray(0, ARTIFACT_MAGIC.length).equals(ARTIFACT_MAGIC)) return 'is not a repomap index artifact';
  const version = header.readUInt16LE(VERSION_AT);
  if (version !== ARTIFACT_VERSION)
    return `is an artifact of format ${version}; this repomap reads format ${ARTIFACT_VERSION}: export it again with this version`;
  const recordVersion = header.readUInt16LE(RECORD_VERSION_AT);
  if (recordVersion !== RECORD_VERSION) {
    return `holds records of version ${recordVersion}; this repomap reads version ${RECORD_VERSION}: export it again with this version`;
  }
  if (header.readUInt8(BYTE_ORDER_AT) !== LITTLE_ENDIAN || !littleEndianMachine()) return 'was written on a machine of another byte order';
  const payloadBytes = header.readDoubleLE(PAYLOAD_BYTES_AT);
  const frameBytes = header.readDoubleLE(FRAME_BYTES_AT);
  if (!Number.isSafeInteger(payloadBytes) || !Number.isSafeInteger(frameBytes) || frameBytes < 0 || frameBytes > MAX_FRAME_BYTES) {
    return 'is corrupt (its header is damaged)';
  }
  const expected = HEADER_BYTES + payloadBytes;
  if (fileBytes < expected) return `is truncated (${fileBytes} of ${expected} bytes)`;
  if (fileBytes > expected) return `is corrupt (${fileBytes - expected} bytes after its end)`;
  return { payloadBytes, frameBytes, checksum: Buffer.from(header.subarray(CHECKSUM_AT, CHECKSUM_AT + CHECKSUM_BYTES)) };
}

function littleEndianMachine(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}
