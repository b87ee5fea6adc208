import type { Language } from '../record/fileRecord.js';
import type { ShardFile } from './shardMessages.js';

const MIN_SHARD_BYTES = 32 * 1024;
const MAX_SHARD_BYTES = 2 * 1024 * 1024;

/**
 * The shards of a run and who takes which. Two costs shape it, both measured on 2 cores:
 * - a worker pays 4–40 ms (and more under load) to load each grammar and compile its queries,
 *   so each lane (one worker) owns some languages, balanced by bytes, and parses those first;
 * - a lane that finishes early idles until the last shard is done, so each language's files
 *   are cut into shards of falling size (guided scheduling): whichever lane takes the last
 *   shards, they are small. A lane out of its own languages helps with the fullest other one.
 */
export class ShardQueue {
  /** Per language, shards biggest first. */
  private readonly shards = new Map<Language, ShardFile[][]>();
  private readonly bytesLeft = new Map<Language, number>();
  private readonly owner = new Map<Language, number>();

  constructor(files: readonly ShardFile[], lanes: number) {
    const byLanguage = new Map<Language, ShardFile[]>();
    for (const file of files) {
      const list = byLanguage.get(file.language);
      if (list) list.push(file);
      else byLanguage.set(file.language, [file]);
    }
    for (const [language, list] of byLanguage) {
      this.shards.set(language, guidedShards(list, lanes));
      this.bytesLeft.set(language, list.reduce((sum, file) => sum + file.size, 0));
    }
    // Longest processing time first: the biggest language goes to the least loaded lane.
    const laneBytes = new Array<number>(lanes).fill(0);
    const languages = [...this.bytesLeft].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [language, bytes] of languages) {
      const lane = laneBytes.indexOf(Math.min(...laneBytes));
      this.owner.set(language, lane);
      laneBytes[lane]! += bytes;
    }
  }

  /** The next shard for `lane`, or undefined when none is left. */
  next(lane: number): ShardFile[] | undefined {
    let fullest: Language | null = null;
    for (const [language, shards] of this.shards) {
      if (shards.length === 0) continue;
      if (this.owner.get(language) === lane) return this.take(language, shards.shift()!);
      if (fullest === null || this.bytesLeft.get(language)! > this.bytesLeft.get(fullest)!) fullest = language;
    }
    return fullest === null ? undefined : this.take(fullest, this.shards.get(fullest)!.shift()!);
  }

  private take(language: Language, shard: ShardFile[]): ShardFile[] {
    const bytes = shard.reduce((sum, file) => sum + file.size, 0);
    this.bytesLeft.set(language, this.bytesLeft.get(language)! - bytes);
    return shard;
  }
}

/** Files cut biggest first into shards of (bytes left) / (2 × lanes), at least 32 KiB each. */
function guidedShards(files: readonly ShardFile[], lanes: number): ShardFile[][] {
  const bySize = [...files].sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1));
  let remaining = bySize.reduce((sum, file) => sum + file.size, 0);
  const shards: ShardFile[][] = [];
  let current: ShardFile[] = [];
  let currentBytes = 0;
  let target = 0;
  for (const file of bySize) {
    if (current.length === 0) target = Math.min(MAX_SHARD_BYTES, Math.max(MIN_SHARD_BYTES, remaining / (2 * lanes)));
    current.push(file);
    currentBytes += file.size;
    if (currentBytes >= target) {
      shards.push(current);
      remaining -= currentBytes;
      current = [];
      currentBytes = 0;
    }
  }
  if (current.length > 0) shards.push(current);
  return shards;
}
