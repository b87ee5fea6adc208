import { readFileSync } from 'node:fs';
import type { SkipReason } from '../src/record/fileRecord.js';

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type SourceText = { text: string; bytes: Buffer; skipped: null } | { text: null; bytes: null; skipped: SkipReason };

/** Reads a file as UTF-8 text (a BOM dropped) with the bytes it was decoded from, or says why it cannot be parsed. */
export function readSource(absolutePath: string, maxFileBytes: number): SourceText {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolutePath);
  } catch {
    return { text: null, bytes: null, skipped: 'unreadable' };
  }
  if (bytes.length === 0) return { text: null, bytes: null, skipped: 'empty' };
  if (bytes.length > maxFileBytes) return { text: null, bytes: null, skipped: 'too-large' };
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { text: null, bytes: null, skipped: 'binary' };
  try {
    return { text: utf8.decode(bytes), bytes, skipped: null };
  } catch {
    return { text: null, bytes: null, skipped: 'invalid-utf8' };
  }
}
