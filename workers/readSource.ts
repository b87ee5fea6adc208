import { readSourceBytes } from '../src/indexing/openSource.js';
import { contentIdOf } from '../src/record/contentId.js';
import type { FileStamp, SkipReason } from '../src/record/fileRecord.js';

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `stamp`: the stat of the file read, taken before reading it; null when nothing was opened (see
 * OpenedSource). `content`: the content id of bytes read and found no UTF-8 text (empty, binary,
 * invalid), whose record then holds for those bytes under any stamp; '' when none were read.
 */
export type SourceText =
  | { text: string; bytes: Buffer; stamp: FileStamp; skipped: null }
  | { text: null; bytes: null; stamp: FileStamp | null; skipped: SkipReason; content: string };

/** Reads a source file (see readSourceBytes) as UTF-8 text (a BOM dropped) with the bytes it was decoded from, or says why it cannot be parsed. */
export function readSource(root: string, path: string, maxFileBytes: number): SourceText {
  const { bytes, stamp, skipped } = readSourceBytes(root, path, maxFileBytes);
  if (skipped) return { text: null, bytes: null, stamp, skipped, content: '' };
  const skip = (reason: SkipReason): SourceText => ({ text: null, bytes: null, stamp, skipped: reason, content: contentIdOf(bytes) });
  if (bytes.length === 0) return skip('empty');
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return skip('binary');
  try {
    return { text: utf8.decode(bytes), bytes, stamp, skipped: null };
  } catch {
    return skip('invalid-utf8');
  }
}
