import { lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { statWorkerFile } from '../packageFiles.js';
import type { FileStamp } from '../record/fileRecord.js';

/**
 * The stamps of a root's listed files (discoverFiles): each file's lstat, a symlink followed only
 * when it resolves to a regular file inside the root. A tree of many files has a second thread
 * (workers/statFiles.ts) stat about half of them: at 93,200 files one thread took 280–400 ms of
 * every map.
 */

/** Fewer files are stated here alone: a worker takes 20–30 ms to start. */
const PARALLEL_FILES = 20_000;
/** Files a thread claims at a time. */
const CHUNK_FILES = 1024;
/** How long the coordinator waits for a chunk the worker claimed before it stats that chunk itself. */
const CHUNK_WAIT_MS = 2000;

/** A file's kind, as either thread writes it per file (pending: not stated yet). */
export const STAT_KIND = { pending: 0, file: 1, link: 2, none: 3 } as const;

/** What the coordinator and the stat worker share: the paths, the chunks claimed and done, and each file's stamp. */
export interface StatShare {
  root: string;
  /** Every path, NUL-separated: one string crosses to the worker, not one per file. */
  joinedPaths: string;
  /** [0]: the next chunk to claim. */
  claims: Int32Array;
  /** Per chunk, 1 once its files' kinds and stamps are written. */
  done: Int32Array;
  /** Per file, its STAT_KIND. */
  kinds: Uint8Array;
  /** Per file, mtimeMs, size, ctimeMs and ino. */
  stamps: Float64Array;
}

/** The share of `paths`, with no chunk claimed yet. */
export function statShareOf(root: string, paths: readonly string[]): StatShare {
  return {
    root,
    joinedPaths: paths.join('\0'),
    claims: new Int32Array(new SharedArrayBuffer(4)),
    done: new Int32Array(new SharedArrayBuffer(4 * chunkCount(paths.length))),
    kinds: new Uint8Array(new SharedArrayBuffer(paths.length)),
    stamps: new Float64Array(new SharedArrayBuffer(32 * paths.length)),
  };
}

/** Claims chunks of `share` until none is left, writing each file's kind and stamp: what both threads run. */
export function statClaimedChunks(share: StatShare, paths: readonly string[], claimed?: (chunk: number) => void): void {
  const chunks = chunkCount(paths.length);
  for (let chunk = Atomics.add(share.claims, 0, 1); chunk < chunks; chunk = Atomics.add(share.claims, 0, 1)) {
    claimed?.(chunk);
    statChunk(share, paths, chunk);
  }
}

function statChunk(share: StatShare, paths: readonly string[], chunk: number): void {
  const end = Math.min(paths.length, (chunk + 1) * CHUNK_FILES);
  const { kinds, stamps } = share;
  for (let i = chunk * CHUNK_FILES; i < end; i++) {
    let stat: Stats | undefined;
    try {
      stat = lstatSync(absolutePath(share.root, paths[i]!));
    } catch {
      stat = undefined;
    }
    kinds[i] = !stat ? STAT_KIND.none : stat.isSymbolicLink() ? STAT_KIND.link : stat.isFile() ? STAT_KIND.file : STAT_KIND.none;
    if (!stat) continue;
    stamps[4 * i] = stat.mtimeMs;
    stamps[4 * i + 1] = stat.size;
    stamps[4 * i + 2] = stat.ctimeMs;
    stamps[4 * i + 3] = stat.ino;
  }
  Atomics.store(share.done, chunk, 1);
  Atomics.notify(share.done, chunk);
}

function chunkCount(files: number): number {
  return Math.ceil(files / CHUNK_FILES);
}

/** Each path's stamp, or null for what is no regular file inside the root (or cannot be stated). */
export function statFiles(root: string, paths: readonly string[]): (FileStamp | null)[] {
  if (paths.length < PARALLEL_FILES) return paths.map((path) => statInsideRoot(root, path));
  const chunks = chunkCount(paths.length);
  const share = statShareOf(root, paths);
  let worker: Worker | null = null;
  try {
    worker = new Worker(statWorkerFile(), { workerData: share });
    // An error in the worker leaves its chunks undone: waited for, then stated here.
    worker.on('error', () => {});
  } catch {
    worker = null;
  }
  const mine = new Uint8Array(chunks);
  statClaimedChunks(share, paths, (chunk) => {
    mine[chunk] = 1;
  });
  for (let chunk = 0; chunk < chunks; chunk++) {
    if (mine[chunk] || Atomics.wait(share.done, chunk, 0, CHUNK_WAIT_MS) !== 'timed-out') continue;
    statChunk(share, paths, chunk);
  }
  void worker?.terminate();
  return paths.map((path, i) => {
    const kind = share.kinds[i];
    if (kind === STAT_KIND.link) return statInsideRoot(root, path);
    if (kind !== STAT_KIND.file) return null;
    const at = 4 * i;
    return { mtimeMs: share.stamps[at]!, size: share.stamps[at + 1]!, ctimeMs: share.stamps[at + 2]!, ino: share.stamps[at + 3]! };
  });
}

/** The stat of a regular file, following a symlink only when its target stays inside the root. */
export function statInsideRoot(root: string, path: string): FileStamp | null {
  const absolute = absolutePath(root, path);
  try {
    let stat = lstatSync(absolute);
    if (stat.isSymbolicLink()) {
      if (!realpathSync(absolute).startsWith(`${root}${sep}`)) return null;
      stat = statSync(absolute);
    }
    if (!stat.isFile()) return null;
    return { mtimeMs: stat.mtimeMs, size: stat.size, ctimeMs: stat.ctimeMs, ino: stat.ino };
  } catch {
    return null;
  }
}

/** `path` (relative, with no `.`, `..` or empty segment: discovery lists no other) under the absolute `root`; join's normalizing was 50 ms at 93,200 files. */
function absolutePath(root: string, path: string): string {
  return root.endsWith(sep) ? `${root}${path}` : `${root}${sep}${path}`;
}
