import type { PageRankOptions } from '../rank/pageRank.js';
import type { TaskSignals, TestFiles } from '../rank/rankForTask.js';
import type { StageTimer } from '../stageTimer.js';

/** How the index of a repository is made: `indexRepository`, `openIndex`, `openRepoMap`. */
export interface IndexOptions {
  /** The repository root; see resolveRoot for the default. */
  root?: string;
  /** Where the tag store lives; default `<root>/.repomap`. */
  cacheDir?: string;
  /** Parse worker threads, at least 1; default the number of cores. */
  jobs?: number;
  /** gitignore-style patterns of files to leave out. */
  ignore?: readonly string[];
  /** Larger files get a record with no tags (`too-large`); default 1 MiB. */
  maxFileBytes?: number;
  /** A file whose parse, queries and record take longer gets a record with no tags (`timeout`); default 10 s. */
  fileTimeoutMs?: number;
  onProgress?: (filesDone: number, filesTotal: number) => void;
  /** Called once before a run parses files, with their number. */
  onParseStart?: (files: number) => void;
  onWarning?: (message: string) => void;
  /** Records the time of each stage. */
  timer?: StageTimer;
}

/** What to do about a chat or mentioned file that is no file of the repository. */
export type MissingFiles = 'error' | 'warn';

/** `task`: what the task at hand needs (the default); `aider`: aider's ranking, exactly. */
export type RankingMode = 'task' | 'aider';

export type { TestFiles } from '../rank/rankForTask.js';

/**
 * How a map shows each definition: its signature line(s) under the heads of the scopes that
 * enclose it, or aider's rendering (grep-ast's headers of every scope, small gaps closed).
 */
export type MapStyle = 'signatures' | 'aider';

/** What one map asks for, beyond the index it is made from. */
export interface MapRequest {
  /**
   * The task's text (an issue, a request): the files and names it mentions and its words steer
   * the ranking (see src/rank/rankForTask.ts). Ignored by `ranking: 'aider'`.
   */
  query?: string;
  ranking?: RankingMode;
  /** Default `demote`; with `ranking: 'aider'`, always `include`. */
  tests?: TestFiles;
  /** The task ranking's signals to leave out, for measuring each (bench/quality); all on by default. */
  signals?: Partial<TaskSignals>;
  /** The token budget, a whole number: the map never exceeds it, and 0 holds no map. */
  maxTokens?: number;
  /** Files being edited: they steer the ranking and are left out of the map. */
  chatFiles?: readonly string[];
  mentionedFiles?: readonly string[];
  mentionedIdents?: readonly string[];
  /** `FILE`, `IDENT` or `FILE:IDENT`: weighted ×10 in the ranking and always in the map. */
  anchors?: readonly string[];
  /** Leave out files that received no rank. */
  excludeUnranked?: boolean;
  /** With no chat files, the budget grows to maxTokens × mapMulNoFiles, within this window (aider); both whole numbers, at least 1. */
  maxContextWindow?: number;
  mapMulNoFiles?: number;
  /** Map lines are cut to this many characters, at least 1. */
  maxLineLength?: number;
  /** How definitions are shown; default `signatures`. */
  style?: MapStyle;
  /** damping strictly between 0 and 1, tolerance above 0, maxIterations at least 1. */
  pageRank?: Partial<PageRankOptions>;
  /** A chat or mentioned file that is no file of the repository: an error (the default), or a warning and ignored. */
  missingFiles?: MissingFiles;
  /** The folder relative paths are tried against first (see resolveUserPath); default the working directory. */
  cwd?: string;
  onWarning?: (message: string) => void;
}

/** `buildMap`'s options: the index's and the map's. */
export type MapOptions = IndexOptions & MapRequest;
