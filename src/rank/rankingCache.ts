import { type GitHistory, gitHistoryId } from '../history/gitHistory.js';
import type { PageRankOptions } from './pageRank.js';
import type { TaskSignals, TestFiles } from './rankForTask.js';

/**
 * A cut ranking of a request that personalizes nothing (no task, chat file, mention or anchor)
 * is the same until the tables change: kept beside them, the next such map ranks nothing (at
 * 93,200 files the ranking is 450 ms of a warm map's 1.8 s).
 */
export interface KeptRanking {
  /** The best definer slots, in order, and their scores. */
  slots: Int32Array;
  slotScores: Float64Array;
  /** Every file the ranking may list, in order, and each file's score by file id. */
  files: Int32Array;
  fileScores: Float64Array;
  complete: boolean;
  iterations: number;
  converged: boolean;
}

/** Where kept rankings are looked up by key, for the tables they were made on. */
export interface RankingCache {
  keptRanking(key: string): KeptRanking | undefined;
  keepRanking(key: string, ranking: KeptRanking): void;
}

/** What a request that personalizes nothing is ranked by, besides the tables: equal keys, equal rankings. */
export interface UnpersonalizedRequest {
  tests: TestFiles;
  signals: TaskSignals;
  pageRank: PageRankOptions;
  limit: number;
  history: GitHistory | null;
}

/** The prefix of every kept ranking's key: new tables drop them all (see DerivedTables). */
export const RANKINGS_PREFIX = 'ranking:';

/** The key a request's ranking is kept under: every option it is ranked by, the history by its id (a digest loaded node:crypto, 4 ms). */
export function rankingKey(request: UnpersonalizedRequest): string {
  const { tests, signals, pageRank, limit, history } = request;
  return `${RANKINGS_PREFIX}${JSON.stringify({ tests, signals, pageRank, limit, history: history && gitHistoryId(history) })}`;
}
