import { readFileSync } from 'node:fs';
import type { SkipReason } from '../src/record/fileRecord.js';

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_SNIFF_BYTES = 8000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type SourceText = { text: string; skipped: null } | { text: null; skipped: SkipReason };

/** Reads a file as UTF-8 text, or says why it cannot be parsed. A BOM is dropped. */
export function readSource(absolutePath: string, maxFileBytes: number): SourceText {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolutePath);
  } catch {
    return { text: null, skipped: 'unreadable' };
  }
  if (bytes.length === 0) return { text: null, skipped: 'empty' };
  if (bytes.length > maxFileBytes) return { text: null, skipped: 'too-large' };
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { text: null, skipped: 'binary' };
  try {
    return { text: utf8.decode(bytes), skipped: null };
  } catch {
    return { text: null, skipped: 'invalid-utf8' };
  }
}
