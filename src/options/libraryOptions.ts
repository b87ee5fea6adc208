import type { PageRankOptions } from '../rank/pageRank.js';
import type { TaskSignals, TestFiles } from '../rank/rankForTask.js';
import type { MapFormatName, MapStyle } from '../render/formats.js';
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
  /** How long a run that has files to parse waits for another run indexing the same store, then indexes anyway; default 60 s. */
  indexWaitMs?: number;
  /**
   * Index only part `part` (1-based) of `of` of the files, for a job split over machines whose
   * parts are merged afterwards (see src/indexing/shardShare.ts, src/artifact/mergeArtifacts.ts).
   * Records of other files are dropped from the store, and nothing is derived from the part.
   */
  shard?: IndexShard;
  onProgress?: (filesDone: number, filesTotal: number) => void;
  /** Called once before a run parses files, with their number. */
  onParseStart?: (files: number) => void;
  onWarning?: (message: string) => void;
  /** Records the time of each stage. */
  timer?: StageTimer;
}

/** Part `part` of `of` (see IndexOptions.shard). */
export interface IndexShard {
  part: number;
  of: number;
}

/** An export or import: the index's options and the artifact's file. */
export interface ArtifactOptions extends IndexOptions {
  /** The artifact file (see src/artifact/artifactFormat.ts). */
  artifact: string;
}

/** What to do about a chat or mentioned file that is no file of the repository. */
export type MissingFiles = 'error' | 'warn';

/** `task`: what the task at hand needs (the default); `aider`: aider's ranking, exactly. */
export type RankingMode = 'task' | 'aider';

export type { TestFiles } from '../rank/rankForTask.js';

/** How a map shows each definition, and how its text is laid out: see src/render/formats.ts. */
export type { MapFormatName, MapStyle } from '../render/formats.js';

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
  /** The task ranking's signals to leave out or weigh otherwise, for measuring each (bench/quality); see ALL_SIGNALS for the defaults. */
  signals?: Partial<TaskSignals>;
  /**
   * The task ranking also reads the repository's recent git history: files changed recently,
   * and files changed together with the chat files, rank higher. No git, or no work tree, is no
   * signal. Default on: it pays on the issue sets (bench/BASELINE.md).
   */
  gitSignals?: boolean;
  /**
   * Where the git signals read history, instead of the work tree holding the root: a git
   * directory and the commit the history ends at (the quality harness's trees are exports of a
   * mirror and hold no `.git`). The root must be the top of that repository's tree: its
   * paths are matched as they are.
   */
  historySource?: { gitDir: string; commit: string };
  /** The token budget, a whole number: the map never exceeds it, and 0 holds no map. */
  maxTokens?: number;
  /** Files being edited: they steer the ranking and are left out of the map. */
  chatFiles?: readonly string[];
  mentionedFiles?: readonly string[];
  mentionedIdents?: readonly string[];
  /**
   * Folders (or files) being worked in, in a monorepo: their files personalize the ranking as
   * mentioned files do, and the map shows only them and the files they import. A path that
   * names nothing of the repository is a RepoPathError.
   */
  scopes?: readonly string[];
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
  /** Also explain the map (RepoMap.explain): why each shown file ranks where it does, and what the budget cut. */
  explain?: boolean;
  /** How the map is laid out: `text` (the default), `compact`, `xml` or `markdown`; every one within the budget. */
  format?: MapFormatName;
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
