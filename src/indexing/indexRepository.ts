import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULTS, LIMITS } from '../defaults.js';
import { type DiscoveredFile, type Discovery, discoverFiles, type GitListing, listGitFiles } from '../discover/discoverFiles.js';
import { resolveRoot } from '../discover/resolveRoot.js';
import { checkIndexOptions } from '../options/checkOptions.js';
import type { IndexOptions } from '../options/libraryOptions.js';
import { emptyRecord, type NameSkipReason, type SkipReason } from '../record/fileRecord.js';
import { encodeRecord, recordStamp, type StoredStamp, stampRecord } from '../record/recordCodec.js';
import { StageTimer } from '../stageTimer.js';
import { openTagStore, STORE_FILE, type TagStore } from '../store/tagStore.js';
import { findCrashCulprits, removeOwnJournals, takeCrashSuspects } from './crashRecovery.js';
import { type IndexerLock, lockIndexer } from './indexerLock.js';
import { planIndex } from './indexPlan.js';
import { parsableHere, parseHere } from './parseHere.js';
import type { ParsePool } from './parsePool.js';
import { shardShare } from './shardShare.js';
import type { ParseLimits, ShardFile, ShardSettings } from './workerProtocol.js';

export const CACHE_DIR_NAME = '.repomap';

export interface IndexSummary {
  root: string;
  /** Files seen. */
  files: number;
  /** Files parsed in this run, tags extracted. */
  parsed: number;
  /** Files whose stored record was still valid. */
  reused: number;
  /** Stored records dropped because their files are gone. */
  removed: number;
  /** Files with no tags, by reason, over all files seen. */
  skipped: Partial<Record<SkipReason | NameSkipReason, number>>;
  /** Each of those files and its reason, sorted by path. */
  skippedFiles: SkippedFile[];
  /** Definitions and references over all files seen. */
  defs: number;
  refs: number;
  seconds: number;
  /** The store's path, or null when it was kept in memory. */
  store: string | null;
}

export interface SkippedFile {
  /** For a name that is not UTF-8, its bytes as discovery shows them (see Discovery['invalidNames']). */
  path: string;
  reason: SkipReason | NameSkipReason;
}

/** A repository's index, up to date with its files, its store open for the caller to read and close. */
export interface OpenIndex {
  root: string;
  files: DiscoveredFile[];
  /** Where the file list came from: git's (inside a work tree) or a walk. */
  source: Discovery['source'];
  store: TagStore;
  summary: IndexSummary;
}

/** `repomap index`: brings the tag store of a repository up to date, closes it, and sums it up. */
export async function indexRepository(options: IndexOptions = {}): Promise<IndexSummary> {
  const index = await openIndex(options);
  await index.store.close();
  return index.summary;
}

/** What a caller of syncIndex does while the workers parse: given the index being synced, the number of files to parse or drop, and of files. */
export type WhileParsing = (index: Pick<OpenIndex, 'root' | 'store'>, changing: number, files: number) => void;

/** Opens the tag store of a repository and syncs it (see syncIndex), leaving it open. */
export function openIndex(options: IndexOptions = {}): Promise<OpenIndex> {
  return openIndexWhileParsing(options);
}

/** openIndex, doing `whileParsing` while the workers parse: for the library's own stages, not its users. */
export async function openIndexWhileParsing(options: IndexOptions, whileParsing?: WhileParsing): Promise<OpenIndex> {
  const started = performance.now();
  checkIndexOptions(options);
  const root = resolveRoot(options.root);
  const cacheDir = cacheDirOf(root, options);
  // A first run parses everything: boot the workers while the store opens and files are found.
  const pool = existsSync(join(cacheDir, STORE_FILE)) ? null : await startParsePool(threadsOf(options));
  // And git lists the files while the store opens.
  const gitListing = listGitFiles(root);
  try {
    const store = await openStore(root, options);
    try {
      return await syncIndex(root, store, options, { started, pool, whileParsing, gitListing });
    } catch (error) {
      await store.close();
      throw error;
    }
  } finally {
    await pool?.close();
  }
}

export function cacheDirOf(root: string, options: IndexOptions): string {
  return options.cacheDir === undefined ? join(root, CACHE_DIR_NAME) : resolve(options.cacheDir);
}

export async function openStore(root: string, options: IndexOptions): Promise<TagStore> {
  options.timer?.begin('open store');
  return openTagStore(root, cacheDirOf(root, options), options.onWarning);
}

/**
 * Syncs an open store with the files on disk: discovers the files, re-parses the new and changed ones in the worker pool (committing shard
 * by shard, so an interrupted run keeps what it finished), and drops records of deleted files.
 * A run with something to write waits for any other run writing the store (see indexerLock.ts)
 * and reuses what that one wrote. A pool is started only when something needs parsing, unless the caller brings one.
 */
export async function syncIndex(
  root: string,
  store: TagStore,
  options: IndexOptions,
  run: { started?: number; pool?: ParsePool | null; whileParsing?: WhileParsing | undefined; gitListing?: Promise<GitListing> | undefined } = {},
): Promise<OpenIndex> {
  const started = run.started ?? performance.now();
  const cacheDir = cacheDirOf(root, options);
  const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
  const fileTimeoutMs = options.fileTimeoutMs ?? DEFAULTS.fileTimeoutMs;
  const warn = options.onWarning ?? (() => {});
  const timer = options.timer ?? new StageTimer();
  let pool = run.pool ?? null;
  let ownPool: ParsePool | null = null;
  let lock: IndexerLock | null = null;
  try {
    // Where the workers' journals and the indexer's lock go: nowhere for a store in memory.
    const journalDir = store.location === null ? null : cacheDir;
    timer.begin('discover');
    const discovered = discoverFiles({ root, ignore: options.ignore, cacheDir }, await run.gitListing);
    const { source, invalidNames } = discovered;
    const files = options.shard ? shardShare(discovered.files, options.shard, maxFileBytes) : discovered.files;
    const limits: ParseLimits = { root, maxFileBytes, fileTimeoutMs };

    if (journalDir) {
      timer.begin('crash check');
      await quarantineCrashCulprits(journalDir, files, store, limits, warn);
    }

    timer.begin('compare stamps');
    let stamps = store.stamps();
    // The generation `stamps` holds the records of: the lock keeps other runs from committing past it.
    let generation = store.generation();
    const storedContent = (path: string) => store.storedContent(path);
    let plan = planIndex(files, stamps, limits, storedContent);
    if (journalDir && (plan.toParse.length > 0 || plan.unparsable.size > 0 || plan.restamps.size > 0 || plan.removals.length > 0)) {
      timer.begin('lock');
      lock = await lockIndexer(journalDir, options.indexWaitMs ?? DEFAULTS.indexWaitMs, warn);
      // Whatever another run wrote meanwhile is not parsed again. A lock taken at once leaves no
      // timer turn since the stamps were read, so without catching up the store looks unchanged.
      store.catchUp();
      if (store.generation() !== generation) {
        stamps = store.stamps();
        generation = store.generation();
        plan = planIndex(files, stamps, limits, storedContent);
      }
    }
    // Keeps `stamps` what the store holds, so the summary needs no second read of it.
    const committedPaths = new Set<string>();
    const commit = async (values: ReadonlyMap<string, Uint8Array>, removals: readonly string[] = [], derivedStand = false) => {
      for (const path of values.keys()) committedPaths.add(path);
      for (const [path, value] of values) stampRecord(value, fileTimeoutMs, stamps.get(path));
      await store.commit(values, removals, derivedStand);
      generation = store.generation();
      for (const [path, value] of values) stamps.set(path, recordStamp(value));
      for (const path of removals) stamps.delete(path);
    };
    // Restamped records first, on their own: the same bytes under new stamps leave the derived tables as they are.
    // In bounded batches: a touch of every file at 93,200 files held 2.3 GB of copies in one transaction, 8.7 GB at its peak.
    let restamped = new Map<string, Uint8Array>();
    let restampedBytes = 0;
    for (const [path, stamp] of plan.restamps) {
      const value = store.restamped(path, stamp);
      if (!value) continue;
      restamped.set(path, value);
      restampedBytes += value.length;
      if (restampedBytes >= LIMITS.commitBatchBytes) {
        await commit(restamped, [], true);
        restamped = new Map();
        restampedBytes = 0;
      }
    }
    if (restamped.size > 0) await commit(restamped, [], true);
    if (plan.unparsable.size > 0 || plan.removals.length > 0) await commit(plan.unparsable, plan.removals);

    let parsed = 0;
    if (plan.toParse.length > 0) {
      timer.begin('parse');
      options.onParseStart?.(plan.toParse.length);
      const settings = { ...limits, journalDir };
      const { whileParsing } = run;
      const changing = plan.toParse.length + plan.removals.length;
      const during = whileParsing && (() => whileParsing({ root, store }, changing, files.length));
      const job: ParseJob = { files: plan.toParse, commit, settings, onProgress: options.onProgress, whileParsing: during };
      if (pool === null && parsableHere(plan.toParse)) {
        parsed = await parseInThisThread(job);
      } else {
        // A worker per file at most: an edit's one changed file should not boot a second isolate.
        pool ??= ownPool = await startParsePool(Math.min(threadsOf(options), plan.toParse.length));
        parsed = await parseInPool(pool, job);
      }
    }
    if (journalDir) removeOwnJournals(journalDir);
    timer.begin('save stamps');
    await store.saveStamps(stamps, generation);

    timer.begin('tally');
    // The stamps planned with, each file committed since under its new one: a second match of every path cost 24 ms at 9,320 files.
    const tallied =
      committedPaths.size === 0
        ? plan.storedStamps
        : plan.storedStamps.map((stamp, i) => (committedPaths.has(files[i]!.path) ? stamps.get(files[i]!.path) : stamp));
    const totals = tally(tallied, files, invalidNames);
    timer.end();
    const summary: IndexSummary = {
      root,
      files: files.length + invalidNames.length,
      parsed,
      reused: plan.reused,
      removed: plan.removals.length,
      ...totals,
      seconds: Math.round(performance.now() - started) / 1000,
      store: store.location,
    };
    return { root, files, source, store, summary };
  } finally {
    lock?.release();
    await ownPool?.close();
  }
}

function threadsOf(options: IndexOptions): number {
  return Math.max(1, options.jobs ?? Math.min(LIMITS.maxJobs, availableParallelism()));
}

/** Loaded only when there is something to parse: a warm run never starts a worker. */
async function startParsePool(threads: number): Promise<ParsePool> {
  const { ParsePool } = await import('./parsePool.js');
  return new ParsePool(threads);
}

/** What a run gives its parse, in this thread or in the pool: the files, where their values go, and what to do meanwhile. */
interface ParseJob {
  files: ShardFile[];
  commit: (values: ReadonlyMap<string, Uint8Array>) => Promise<void>;
  settings: ShardSettings;
  onProgress: IndexOptions['onProgress'];
  whileParsing: (() => void) | undefined;
}

/** A few small files (an edit's): parsed here, as booting a worker would take longer. Returns how many were parsed. */
async function parseInThisThread({ files, commit, settings, onProgress, whileParsing }: ParseJob): Promise<number> {
  whileParsing?.();
  const outcome = await parseHere(files, settings);
  await commit(outcome.values);
  onProgress?.(files.length, files.length);
  return outcome.parsed;
}

async function parseInPool(pool: ParsePool, { files, commit, settings, onProgress, whileParsing }: ParseJob): Promise<number> {
  const lanes = Math.min(pool.threads, files.length);
  const { ShardQueue } = await import('./shards.js');
  const queue = new ShardQueue(files, lanes);
  let parsed = 0;
  let filesDone = 0;
  const commits: Promise<void>[] = [];
  // One shard in flight per lane: a shard's watchdog then times its run, not a wait in a queue.
  // Commits are not awaited before the next shard goes out, so workers never wait on LMDB.
  const lane = async (index: number): Promise<void> => {
    for (let shard = queue.next(index); shard; shard = queue.next(index)) {
      const outcome = await pool.parse(index, shard, settings);
      const done = shard.length;
      commits.push(
        commit(outcome.values).then(() => {
          filesDone += done;
          onProgress?.(filesDone, files.length);
        }),
      );
      parsed += outcome.parsed;
    }
  };
  // Each lane sends its first shard before its first wait: the workers parse while whileParsing runs.
  const lanesDone = Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
  try {
    whileParsing?.();
  } finally {
    await lanesDone;
  }
  await Promise.all(commits);
  return parsed;
}

/**
 * After a crash, parses the files the dead run was parsing in a child process; those that crash
 * it are stored as `quarantined` (until they change) and named in a warning.
 */
async function quarantineCrashCulprits(
  journalDir: string,
  files: DiscoveredFile[],
  store: TagStore,
  limits: ParseLimits,
  warn: (message: string) => void,
): Promise<void> {
  const suspects = new Set(takeCrashSuspects(journalDir));
  if (suspects.size === 0) return;
  const suspectFiles: (DiscoveredFile & ShardFile)[] = [];
  for (const file of files) {
    if (suspects.has(file.path) && file.language !== null) {
      suspectFiles.push({ ...file, language: file.language });
    }
  }
  const culprits = new Set(await findCrashCulprits(suspectFiles, limits));
  if (culprits.size === 0) return;
  const values = new Map<string, Uint8Array>();
  for (const file of suspectFiles) {
    if (!culprits.has(file.path)) continue;
    warn(`quarantined ${file.path}: parsing it crashed the process; it is skipped until it changes`);
    const value = encodeRecord(emptyRecord(file.path, file, file.language, 'quarantined'));
    stampRecord(value, limits.fileTimeoutMs, undefined);
    values.set(file.path, value);
  }
  await store.commit(values);
}

/** Sums `stamps`, the stored stamps of `files` in their order, and counts the names that are not UTF-8 as skipped. */
function tally(
  stamps: readonly (StoredStamp | undefined)[],
  files: DiscoveredFile[],
  invalidNames: string[],
): Pick<IndexSummary, 'skipped' | 'skippedFiles' | 'defs' | 'refs'> {
  const skipped: IndexSummary['skipped'] = {};
  const skippedFiles: SkippedFile[] = [];
  let defs = 0;
  let refs = 0;
  for (const [i, file] of files.entries()) {
    const stamp = stamps[i];
    if (!stamp) continue;
    defs += stamp.definitions;
    refs += stamp.references;
    if (stamp.skipped) {
      skipped[stamp.skipped] = (skipped[stamp.skipped] ?? 0) + 1;
      skippedFiles.push({ path: file.path, reason: stamp.skipped });
    }
  }
  if (invalidNames.length > 0) {
    skipped['name-not-utf8'] = invalidNames.length;
    for (const path of invalidNames) skippedFiles.push({ path, reason: 'name-not-utf8' });
    skippedFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return { skipped, skippedFiles, defs, refs };
}
