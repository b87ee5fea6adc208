import type { StoredStamp } from '../../dist/src/record/recordCodec.js';

/** A stored stamp of its own for each `i` (fractional times, an inode past 2^32), with `changes` on top. */
export function storedStamp(i: number, changes: Partial<StoredStamp> = {}): StoredStamp {
  return {
    mtimeMs: 1_700_000_000_000.5 + i,
    size: 100 * i,
    ctimeMs: 1_700_000_000_001.25 + i,
    ino: 2 ** 40 + i,
    definitions: 3 * i,
    references: 7 * i,
    skipped: null,
    fileTimeoutMs: 10_000,
    retries: 0,
    ...changes,
  };
}
