import { openDerivedIndex } from '../derived/derivedIndex.js';
import { NoMapError } from '../errors.js';
import { type IndexSummary, type OpenIndex, openStore } from '../indexing/indexRepository.js';
import type { IndexOptions } from '../options/libraryOptions.js';
import { StageTimer } from '../stageTimer.js';
import { composeMap } from './composeMap.js';
import { resolveMapRequest } from './mapRequest.js';

/**
 * The repository indexed, and what the first map and the navigation commands would derive from
 * the records derived now and saved with them: the identifier tables, the resolved imports, the
 * lexical tables a task is scored on, the PageRank results of a map with no chat file, the token
 * counts of the default map's lines, the files' ranks with no task; and the store checked as its
 * next opening would check it. So a job that indexes leaves a store every later map reads warm.
 */
export async function warmIndex(options: IndexOptions = {}): Promise<IndexSummary> {
  return (await withWarmIndex(options, async () => {})).summary;
}

/** As warmIndex, handing `use` the warm index before its store is closed (an export reads it so). */
export async function withWarmIndex<T>(options: IndexOptions, use: (index: OpenIndex) => Promise<T>): Promise<{ summary: IndexSummary; result: T }> {
  const timer = options.timer ?? new StageTimer();
  const { index, derived } = await openDerivedIndex({ ...options, timer });
  let onDisk = index.store.location !== null;
  let result: T;
  try {
    // A part of a sharded index is merged before anything is derived from it.
    if (index.files.length > 0 && !options.shard) {
      // The default map itself, made and dropped: what it derives is saved on the way. A tree with no map has nothing to warm.
      await composeMap(index, derived, resolveMapRequest({}), timer).catch((error: unknown) => {
        if (!(error instanceof NoMapError)) throw error;
      });
      // A map without a task leaves them behind after a change (see DerivedTables.lexicalTables): brought up to date here.
      await derived.lexicalTables(
        index.files.map((file) => file.path),
        timer,
      );
      timer.begin('file ranks');
      derived.noTaskFileRanks();
      await derived.saveComputed();
    }
    // A store that could not be written went to memory, and said so: nothing on disk to check.
    onDisk &&= index.store.location !== null;
    result = await use(index);
  } finally {
    await index.store.close();
  }
  if (onDisk) {
    // A store is checked whole on its first opening after a write it did not vouch for (another run's meanwhile): done here, so the first map need not.
    timer.begin('check store');
    await (await openStore(index.root, { ...options, timer: undefined })).close();
  }
  return { summary: index.summary, result };
}
