/** `repomap import`: seeds a repository's store from an artifact, taking each record only where it holds for the tree's file. */
import { resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { DEFAULTS, LIMITS } from '../defaults.js';
import { ImportedTableInputs } from '../derived/derivedTables.js';
import { discoverFiles } from '../discover/discoverFiles.js';
import { resolveRoot } from '../discover/resolveRoot.js';
import { ArtifactError } from '../errors.js';
import { lockIndexer } from '../indexing/indexerLock.js';
import { planIndex } from '../indexing/indexPlan.js';
import { cacheDirOf, openStore } from '../indexing/indexRepository.js';
import { checkArtifactOptions } from '../options/checkOptions.js';
import type { ArtifactOptions, IndexOptions } from '../options/libraryOptions.js';
import type { FileStamp } from '../record/fileRecord.js';
import { recordContent, recordStamp, restampRecord, type StoredStamp, wellFormedRecord } from '../record/recordCodec.js';
import { StampTable } from '../record/stampTable.js';
import { StageTimer } from '../stageTimer.js';
import { type DerivedKey, isPortableKey, type TagStore } from '../store/tagStore.js';
import { readArtifact } from './artifactFile.js';

export interface ImportSummary {
  root: string;
  /** The artifacts read, in order. */
  artifacts: string[];
  /** Records they hold. */
  records: number;
  /** Those that hold for the tree's files: written to the store. */
  imported: number;
  /** Those of files whose bytes are not what the record was made from (parsed by the next run). */
  changed: number;
  /** Those of files the tree does not have. */
  absent: number;
  /** Files of the tree no artifact has a record of. */
  missing: number;
  /** Whether the derived tables were taken too (from one artifact only): where files differ, the next run patches them. */
  derived: boolean;
  tokenCounts: number;
  /** The store written. */
  store: string;
  seconds: number;
}

const TOKEN_COUNTS_PER_SAVE = 100_000;

/**
 * Reads the artifact through once to check it whole and learn each record's stamp and content
 * id; compares those with the tree as a run of `index` would (see planIndex: a record holds when
 * its file's stat is the one recorded, or its bytes have the recorded content id); then reads it
 * again to write the records that hold, restamped for this tree, each checked against the first
 * read. A refused artifact (not one, truncated, corrupt, another version) is found by the first
 * read, before the store is opened: the store is left as it was. Files whose records do not
 * hold are parsed by the next run, as are files the artifact lacks.
 */
export async function importIndex(options: ArtifactOptions): Promise<ImportSummary> {
  checkArtifactOptions(options);
  return importArtifacts(options, [options.artifact]);
}

/** As importIndex, from several artifacts that each hold records of other files (the parts of a sharded index, see merge). */
export async function importArtifacts(options: IndexOptions, paths: readonly string[]): Promise<ImportSummary> {
  const started = performance.now();
  const artifacts = paths.map((path) => resolve(path));
  const root = resolveRoot(options.root);
  const cacheDir = cacheDirOf(root, options);
  const timer = options.timer ?? new StageTimer();
  const warn = options.onWarning ?? (() => {});

  timer.begin('check artifacts');
  const stamps = new Map<string, StoredStamp>();
  const contents = new Map<string, string>();
  /** Per record, the artifact it came from and the CRC-32 of its first read, which the second must match. */
  const sources = new Map<string, { artifact: number; crc: number }>();
  const derivedDigests = new Map<DerivedKey, number>();
  const tokenCounts = new Map<string, number>();
  let records = 0;
  for (const [index, artifact] of artifacts.entries()) {
    const counts = await readArtifact(artifact, ({ kind, key, value }) => {
      if (kind === 'record') {
        if (!wellFormedRecord(value)) throw new ArtifactError(`${artifact} is corrupt (the record of ${key} is malformed)`);
        const other = sources.get(key);
        if (other?.artifact === index) throw new ArtifactError(`${artifact} is corrupt (two records of ${key})`);
        if (other) throw new ArtifactError(`${artifacts[other.artifact]} and ${artifact} both hold a record of ${key}: they are not parts of one index`);
        stamps.set(key, recordStamp(value));
        const content = recordContent(value);
        if (content !== '') contents.set(key, content);
        sources.set(key, { artifact: index, crc: crc32(value) });
      } else if (kind === 'token-count') {
        if (value.length !== 4) throw new ArtifactError(`${artifact} is corrupt (the token count of a line is malformed)`);
        tokenCounts.set(key, Buffer.from(value.buffer, value.byteOffset, 4).readUInt32LE(0));
      } else if (artifacts.length === 1 && isPortableKey(key)) {
        // A key of the store's own (its stamps, its generation) is this tree's to write: an artifact that holds one is not taken at its word.
        derivedDigests.set(key, crc32(value));
      }
    });
    records += counts.records;
  }

  timer.begin('discover');
  const { files } = discoverFiles({ root, ignore: options.ignore, cacheDir });
  timer.begin('compare contents');
  const limits = { root, maxFileBytes: options.maxFileBytes ?? DEFAULTS.maxFileBytes, fileTimeoutMs: options.fileTimeoutMs ?? DEFAULTS.fileTimeoutMs };
  const plan = planIndex(files, StampTable.of(stamps), limits, (path) => contents.get(path));
  const notHolding = new Set([...plan.toParse.map((file) => file.path), ...plan.unparsable.keys()]);
  /** The records to write: restamped for this tree, or as they are (null) when their stamps are already the files'. */
  const holding = new Map<string, FileStamp | null>();
  for (const file of files) {
    if (stamps.has(file.path) && !notHolding.has(file.path)) holding.set(file.path, plan.restamps.get(file.path) ?? null);
  }
  const missing = files.filter((file) => !stamps.has(file.path)).length;
  // Taken with what they were built from in this tree's terms, where the tree differs too: the next run patches them.
  const takeDerived = artifacts.length === 1;

  const store = await openStore(root, { ...options, timer });
  try {
    if (store.location === null) throw new ArtifactError('cannot import: the tag store is kept in memory (see the warning above)');
    timer.begin('lock');
    const lock = await lockIndexer(cacheDir, options.indexWaitMs ?? DEFAULTS.indexWaitMs, warn);
    try {
      store.catchUp();
      timer.begin('import');
      await writeHolding(
        store,
        artifacts,
        holding,
        sources,
        takeDerived ? derivedDigests : new Map(),
        files.map((file) => file.path),
      );
      timer.begin('save token counts');
      let batch = new Map<string, number>();
      for (const [line, count] of tokenCounts) {
        batch.set(line, count);
        if (batch.size < TOKEN_COUNTS_PER_SAVE) continue;
        await store.saveTokenCounts(batch);
        batch = new Map();
      }
      await store.saveTokenCounts(batch);
      timer.begin('save stamps');
      await store.saveStamps(store.stamps(), store.generation());
    } finally {
      lock?.release();
    }
    if (store.location === null) throw new ArtifactError('cannot import: the tag store could not be written (see the warning above)');
  } finally {
    await store.close();
  }
  // Checked whole now, as its first opening after a write would (see warmIndex).
  timer.begin('check store');
  await (await openStore(root, { ...options, timer: undefined })).close();
  timer.end();
  return {
    root,
    artifacts,
    records,
    imported: holding.size,
    changed: stamps.size - holding.size - plan.removals.length,
    absent: plan.removals.length,
    missing,
    derived: takeDerived,
    tokenCounts: tokenCounts.size,
    store: store.location ?? '',
    seconds: Math.round(performance.now() - started) / 1000,
  };
}

/**
 * The second read: commits the records that hold, a batch at a time, and with them the removal
 * of records of files the tree no longer has; then the derived values in `derivedDigests`, at
 * the generation those commits end at, with what the tables were built from in this tree's terms
 * (ImportedTableInputs). Every value must be the one the first read checked.
 */
async function writeHolding(
  store: TagStore,
  artifacts: readonly string[],
  holding: ReadonlyMap<string, FileStamp | null>,
  sources: ReadonlyMap<string, { artifact: number; crc: number }>,
  derivedDigests: ReadonlyMap<DerivedKey, number>,
  present: readonly string[],
): Promise<void> {
  let removals = store.stamps().match(present).unmatched;
  let batch = new Map<string, Uint8Array>();
  let batchBytes = 0;
  const commit = async () => {
    if (batch.size === 0 && removals.length === 0) return;
    await store.commit(batch, removals);
    batch = new Map();
    batchBytes = 0;
    removals = [];
  };
  const derived = new Set<DerivedKey>();
  const inputs = ImportedTableInputs.for(new Set(derivedDigests.keys()));
  for (const [index, artifact] of artifacts.entries()) {
    const changedMeanwhile = () => new ArtifactError(`${artifact} changed while it was read; nothing more was imported`);
    await readArtifact(artifact, async ({ kind, key, value }) => {
      if (kind === 'record') {
        inputs?.add(key, value);
        const stamp = holding.get(key);
        if (stamp === undefined || sources.get(key)?.artifact !== index) return;
        if (crc32(value) !== sources.get(key)!.crc) throw changedMeanwhile();
        const record = stamp ? restampRecord(value, stamp) : new Uint8Array(value);
        batch.set(key, record);
        batchBytes += record.length;
        if (batchBytes >= LIMITS.commitBatchBytes) await commit();
      } else if (kind === 'derived' && derivedDigests.has(key)) {
        if (crc32(value) !== derivedDigests.get(key)) throw changedMeanwhile();
        // Saved as each comes, after the records before it (an artifact holds them first): at 93,200 files they are 560 MB, held twice saved together.
        await commit();
        // Copied: a frame's bytes are the reader's to reuse, and a store that fell back to memory keeps what it is given.
        await store.saveDerivedValues(new Map([[key, new Uint8Array(value)]]), store.generation());
        derived.add(key);
      }
    });
  }
  await commit();
  // At the generation the records' commits end at, with the derived values (a record after them moves it: then a build, not a patch, follows).
  const tableInputs = inputs?.values(store.stamps(), derived);
  if (tableInputs && tableInputs.size > 0) await store.saveDerivedValues(tableInputs, store.generation());
}
