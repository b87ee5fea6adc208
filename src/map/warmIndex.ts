import { DerivedTables } from '../derived/derivedTables.js';
import { type IndexSummary, openIndex } from '../indexing/indexRepository.js';
import type { IndexOptions } from '../options/libraryOptions.js';
import { StageTimer } from '../stageTimer.js';
import { composeMap } from './composeMap.js';
import { resolveMapRequest } from './mapRequest.js';

/**
 * The repository indexed, and what the first map and the navigation commands would derive from
 * the records derived now and saved with them: the identifier tables, the resolved imports, the
 * PageRank results of a map with no chat file, the token counts of the default map's lines, the
 * files' ranks with no task. So a job that indexes leaves a store every later map reads warm.
 */
export async function warmIndex(options: IndexOptions = {}): Promise<IndexSummary> {
  const timer = options.timer ?? new StageTimer();
  const index = await openIndex({ ...options, timer });
  try {
    if (index.files.length > 0) {
      const derived = new DerivedTables(index.store, index.root);
      // The default map itself, made and dropped: what it derives is saved on the way.
      await composeMap(index, derived, resolveMapRequest({}), timer);
      timer.begin('file ranks');
      derived.noTaskFileRanks();
      await derived.saveComputed();
    }
    return index.summary;
  } finally {
    await index.store.close();
  }
}
