import { closeSync, readSync } from 'node:fs';
import { openSource } from '../src/indexing/openSource.js';
import type { FileStamp, SkipReason } from '../src/record/fileRecord.js';

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `stamp`: the stat of the file read, taken before reading it; null when nothing was opened (see OpenedSource). */
export type SourceText =
  | { text: string; bytes: Buffer; stamp: FileStamp; skipped: null }
  | { text: null; bytes: null; stamp: FileStamp | null; skipped: SkipReason };

/** Reads a source file (see openSource) as UTF-8 text (a BOM dropped) with the bytes it was decoded from, or says why it cannot be parsed. */
export function readSource(root: string, path: string, maxFileBytes: number): SourceText {
  const opened = openSource(root, path);
  if (opened.skipped) return { text: null, bytes: null, stamp: opened.stamp, skipped: opened.skipped };
  const { fd, stamp } = opened;
  const skip = (skipped: SkipReason): SourceText => ({ text: null, bytes: null, stamp, skipped });
  let bytes: Buffer;
  try {
    if (stamp.size > maxFileBytes) return skip('too-large');
    bytes = readAtMost(fd, maxFileBytes + 1, stamp.size);
  } catch {
    return skip('unreadable');
  } finally {
    closeSync(fd);
  }
  if (bytes.length === 0) return skip('empty');
  if (bytes.length > maxFileBytes) return skip('too-large');
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return skip('binary');
  try {
    return { text: utf8.decode(bytes), bytes, stamp, skipped: null };
  } catch {
    return skip('invalid-utf8');
  }
}

/** Up to `limit` bytes, into a buffer of the size the file had (plus one, to see its end): a file that grows meanwhile is read no further than the limit. */
function readAtMost(fd: number, limit: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafeSlow(Math.min(size + 1, limit));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length === limit) break;
      const bigger = Buffer.allocUnsafeSlow(Math.min(2 * length, limit));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}
