import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * lmdb, loaded on first use (commands that never touch the store never pay for it) and as
 * CommonJS: the bundled build loads in 6 ms, its ESM module graph in 14. Its native-build finder
 * asks detect-libc whether the C library is glibc or musl, and detect-libc loads
 * node:child_process (with net, dgram and the streams) at once, for a `getconf` it rarely runs:
 * 2–4 ms of every command that reads the store. The finder takes the answer from the LIBC
 * variable when it is set; the libraries this process has mapped give it.
 */
export function loadLmdb(): typeof import('lmdb') {
  const family = process.env.LIBC === undefined ? libcFamily() : null;
  if (family) process.env.LIBC = family;
  try {
    return createRequire(import.meta.url)('lmdb') as typeof import('lmdb');
  } finally {
    // Set for the finder alone: git and the parse workers inherit the environment as the user left it.
    if (family) delete process.env.LIBC;
  }
}

/** The C library this process runs on, as node-gyp-build names it: from its memory map on Linux; null elsewhere, or when neither shows. */
export function libcFamily(): 'glibc' | 'musl' | null {
  if (process.platform !== 'linux') return null;
  let maps: string;
  try {
    maps = readFileSync('/proc/self/maps', 'latin1');
  } catch {
    return null;
  }
  if (/\/ld-musl-[^/\s]*\.so/.test(maps)) return 'musl';
  // glibc's library is libc.so.6, named libc-2.NN.so before 2.34.
  if (/\/libc(\.so\.6|-2\.\d+\.so)$/m.test(maps)) return 'glibc';
  return null;
}
