import { lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { sep } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { statWorkerFile } from '../packageFiles.js';
import type { FileStamp } from '../record/fileRecord.js';

/**
 * The stamps of a root's listed files (discoverFiles): each file's lstat, a symlink followed only
 * when it resolves to a regular file inside the root. Paths are taken as they are listed, a chunk
 * at a time; once a tree has shown many files, a second thread (workers/statFiles.ts) stats each
 * chunk handed to it, while the walk goes on listing (at 93,200 files one thread took 280–400 ms
 * of every map, and the walk 210 before the first stat). At the end the coordinator stats the
 * chunks the worker has not claimed, from the last one back.
 */

/** Until this many files are listed they are stated here alone: a worker takes 20–30 ms to start. */
const PARALLEL_FILES = 20_000;
/** Files in a chunk: what a thread claims at a time. */
export const CHUNK_FILES = 1024;
/** How long the coordinator waits for a chunk the worker claimed before it stats that chunk itself. */
const CHUNK_WAIT_MS = 2000;

/** A file's kind, as either thread writes it per file (pending: not stated yet). */
export const STAT_KIND = { pending: 0, file: 1, link: 2, none: 3 } as const;

/** Where a chunk's claim and done flags sit in its state, an Int32Array. */
const CLAIMED = 0;
const DONE = 1;

/** One chunk as both threads see it: its paths, and shared memory for who claimed it and what they found. */
export interface StatChunk {
  root: string;
  /** The chunk's paths, NUL-separated: one string crosses to the worker, not one per file. */
  joinedPaths: string;
  /** [CLAIMED], [DONE]: 0, then 1 once a thread claimed it or wrote every file's kind and stamp. */
  state: Int32Array;
  /** Per file, its STAT_KIND. */
  kinds: Uint8Array;
  /** Per file, mtimeMs, size, ctimeMs and ino. */
  stamps: Float64Array;
}

/** A chunk of `paths`, unclaimed, in memory both threads can write. */
export function statChunkOf(root: string, paths: readonly string[]): StatChunk {
  const shared = new SharedArrayBuffer(8 + 8 * 4 * paths.length + paths.length);
  return {
    root,
    joinedPaths: paths.join('\0'),
    state: new Int32Array(shared, 0, 2),
    stamps: new Float64Array(shared, 8, 4 * paths.length),
    kinds: new Uint8Array(shared, 8 + 8 * 4 * paths.length, paths.length),
  };
}

/** Stats the chunk's files when no thread has claimed it yet (both threads run this); whether this one did. */
export function statIfUnclaimed(chunk: StatChunk, paths: readonly string[] = chunk.joinedPaths.split('\0')): boolean {
  if (Atomics.compareExchange(chunk.state, CLAIMED, 0, 1) !== 0) return false;
  statChunk(chunk, paths);
  return true;
}

function statChunk(chunk: StatChunk, paths: readonly string[]): void {
  const { kinds, stamps } = chunk;
  for (let i = 0; i < paths.length; i++) {
    let stat: Stats | undefined;
    try {
      stat = lstatSync(absolutePath(chunk.root, paths[i]!));
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
  Atomics.store(chunk.state, DONE, 1);
  Atomics.notify(chunk.state, DONE);
}

/** Files stated as they are listed (add), their stamps taken at the end (finish). */
export class FileStats {
  private readonly paths: string[] = [];
  private readonly chunks: StatChunk[] = [];
  private worker: Worker | null = null;
  private triedWorker = false;

  constructor(private readonly root: string) {}

  add(path: string): void {
    this.paths.push(path);
    if (this.paths.length % CHUNK_FILES !== 0) return;
    if (!this.triedWorker && this.paths.length >= PARALLEL_FILES) {
      this.triedWorker = true;
      this.worker = startWorker();
    }
    if (this.worker) this.handOver();
  }

  /** Every path added, and its stamp, or null for what is no regular file inside the root (or cannot be stated). */
  finish(): { paths: string[]; stamps: (FileStamp | null)[] } {
    const { paths, root } = this;
    if (!this.worker) return { paths, stamps: paths.map((path) => statInsideRoot(root, path)) };
    if (paths.length > this.chunks.length * CHUNK_FILES) this.chunks.push(statChunkOf(root, this.chunkPaths(this.chunks.length)));
    // The worker takes chunks from the first on: the last ones are this thread's.
    const mine = new Uint8Array(this.chunks.length);
    for (let at = this.chunks.length - 1; at >= 0; at--) mine[at] = statIfUnclaimed(this.chunks[at]!, this.chunkPaths(at)) ? 1 : 0;
    const stamps: (FileStamp | null)[] = new Array(paths.length);
    this.chunks.forEach((chunk, at) => {
      // An error in the worker leaves its chunk undone: waited for, then stated here.
      if (!mine[at] && Atomics.wait(chunk.state, DONE, 0, CHUNK_WAIT_MS) === 'timed-out') statChunk(chunk, this.chunkPaths(at));
      const first = at * CHUNK_FILES;
      chunk.kinds.forEach((kind, i) => {
        const s = 4 * i;
        stamps[first + i] =
          kind === STAT_KIND.link
            ? statInsideRoot(root, paths[first + i]!)
            : kind === STAT_KIND.file
              ? { mtimeMs: chunk.stamps[s]!, size: chunk.stamps[s + 1]!, ctimeMs: chunk.stamps[s + 2]!, ino: chunk.stamps[s + 3]! }
              : null;
      });
    });
    void this.worker.terminate();
    return { paths, stamps };
  }

  /** Hands the worker a chunk of each CHUNK_FILES paths added since the last. */
  private handOver(): void {
    while ((this.chunks.length + 1) * CHUNK_FILES <= this.paths.length) {
      const chunk = statChunkOf(this.root, this.chunkPaths(this.chunks.length));
      this.chunks.push(chunk);
      this.worker!.postMessage(chunk);
    }
  }

  private chunkPaths(at: number): string[] {
    return this.paths.slice(at * CHUNK_FILES, (at + 1) * CHUNK_FILES);
  }
}

/** The stat worker, or null when none can start: then every chunk is stated here. */
function startWorker(): Worker | null {
  try {
    // Loaded here: node:worker_threads (and the timing modules it loads) cost a map of a smaller tree 2 ms.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(statWorkerFile());
    worker.on('error', () => {});
    return worker;
  } catch {
    return null;
  }
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
