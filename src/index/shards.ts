import type { ShardFile } from './shardMessages.js';

/** Shards per worker: enough for the queue to even out uneven files, few enough to keep overhead low. */
const SHARDS_PER_WORKER = 6;
const MIN_SHARD_BYTES = 64 * 1024;
const MAX_SHARD_BYTES = 2 * 1024 * 1024;

/**
 * Splits files into shards of about equal bytes, largest first, so the pool's queue ends with
 * small shards and workers finish together. A file larger than a shard gets a shard of its own.
 */
export function shardByBytes(files: readonly ShardFile[], workers: number): ShardFile[][] {
  if (files.length === 0) return [];
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  const target = Math.min(MAX_SHARD_BYTES, Math.max(MIN_SHARD_BYTES, totalBytes / (workers * SHARDS_PER_WORKER)));
  const bySize = [...files].sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1));
  const shards: { files: ShardFile[]; bytes: number }[] = [];
  let current: { files: ShardFile[]; bytes: number } | null = null;
  for (const file of bySize) {
    if (!current || current.bytes + file.size > target) {
      current = { files: [], bytes: 0 };
      shards.push(current);
    }
    current.files.push(file);
    current.bytes += file.size;
  }
  return shards.map((shard) => shard.files);
}
