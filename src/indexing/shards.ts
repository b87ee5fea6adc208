import type { Language } from '../record/fileRecord.js';
import type { ShardFile } from './workerProtocol.js';

const MIN_SHARD_BYTES = 32 * 1024;
const MAX_SHARD_BYTES = 2 * 1024 * 1024;

/**
 * What a language costs a worker, measured here: microseconds per source byte in one thread
 * (read, parse, query, extract; the 500-file slices), and milliseconds to compile its queries.
 * Java costs half what Go does per byte, so lanes balanced by bytes alone were not balanced.
 */
const LANGUAGE_COST: Record<Language, { microsPerByte: number; loadMs: number }> = {
  java: { microsPerByte: 0.13, loadMs: 9 },
  javascript: { microsPerByte: 0.18, loadMs: 19 },
  python: { microsPerByte: 0.22, loadMs: 24 },
  rust: { microsPerByte: 0.25, loadMs: 17 },
  go: { microsPerByte: 0.26, loadMs: 5 },
  typescript: { microsPerByte: 0.27, loadMs: 50 },
  tsx: { microsPerByte: 0.27, loadMs: 49 },
};

/** Estimated milliseconds of a worker's time. */
function costOf(language: Language, bytes: number): number {
  return (LANGUAGE_COST[language].microsPerByte * bytes) / 1000;
}

/**
 * The shards of a run and who takes which. Two costs shape it, both measured on 2 cores:
 * - a worker pays 5–50 ms to load each grammar and compile its queries, so each lane (one
 *   worker) owns some languages, balanced by estimated time, and parses those first;
 * - a lane that finishes early idles until the last shard is done, so each language's files
 *   are cut into shards of falling size (guided scheduling): whichever lane takes the last
 *   shards, they are small. A lane out of its own languages helps with the others.
 */
export class ShardQueue {
  /** Per language, shards biggest first. */
  private readonly shards = new Map<Language, ShardFile[][]>();
  private readonly bytesLeft = new Map<Language, number>();
  private readonly owner = new Map<Language, number>();
  /** Per lane, the languages its worker has loaded. */
  private readonly loaded: Set<Language>[];

  constructor(files: readonly ShardFile[], lanes: number) {
    this.loaded = Array.from({ length: lanes }, () => new Set<Language>());
    const byLanguage = new Map<Language, ShardFile[]>();
    for (const file of files) {
      const list = byLanguage.get(file.language);
      if (list) list.push(file);
      else byLanguage.set(file.language, [file]);
    }
    for (const [language, list] of byLanguage) {
      this.shards.set(language, guidedShards(list, lanes));
      this.bytesLeft.set(
        language,
        list.reduce((sum, file) => sum + file.size, 0),
      );
    }
    // Longest processing time first: the costliest language goes to the least loaded lane.
    const laneCost = new Array<number>(lanes).fill(0);
    const languages = [...this.bytesLeft]
      .map(([language, bytes]) => ({ language, cost: costOf(language, bytes) + LANGUAGE_COST[language].loadMs }))
      .sort((a, b) => b.cost - a.cost || (a.language < b.language ? -1 : 1));
    for (const { language, cost } of languages) {
      const lane = laneCost.indexOf(Math.min(...laneCost));
      this.owner.set(language, lane);
      laneCost[lane]! += cost;
    }
  }

  /**
   * The next shard for `lane`, or undefined when it has nothing left worth doing: its own
   * languages first, then the other language with the most work left, unless loading that
   * grammar would cost the lane more than the work it could take over.
   */
  next(lane: number): ShardFile[] | undefined {
    let best: Language | null = null;
    let bestGain = 0;
    for (const [language, shards] of this.shards) {
      if (shards.length === 0) continue;
      if (this.owner.get(language) === lane) return this.take(lane, language);
      const loading = this.loaded[lane]!.has(language) ? 0 : LANGUAGE_COST[language].loadMs;
      const gain = costOf(language, this.bytesLeft.get(language)!) - loading;
      if (gain > bestGain) {
        best = language;
        bestGain = gain;
      }
    }
    return best === null ? undefined : this.take(lane, best);
  }

  private take(lane: number, language: Language): ShardFile[] {
    const shard = this.shards.get(language)!.shift()!;
    const bytes = shard.reduce((sum, file) => sum + file.size, 0);
    this.bytesLeft.set(language, this.bytesLeft.get(language)! - bytes);
    this.loaded[lane]!.add(language);
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
