/** What the quality harness writes into the bench results JSON (`quality`), per instance so two runs can be diffed. */

export const ISSUE_BUDGETS = [1024, 2048, 4096] as const;
export const SLICE_BUDGETS = [1024, 4096] as const;

export interface QualityResults {
  /** The variants measured, by name. */
  variants: string[];
  issues: IssueResults | null;
  slices: SliceResults | null;
}

export interface IssueResults {
  outcomes: IssueOutcome[];
  /** Sets, repositories and issues not measured, one line each. */
  skipped: string[];
  seconds: number;
}

export interface IssueOutcome {
  set: string;
  instance: string;
  repo: string;
  language: string;
  gold: string[];
  /** Indexing the tree (cold on the first run, warm after). */
  indexSeconds: number;
  /** Per gold file, its 1-based place in BM25's ranking (null: not ranked). */
  bm25: (number | null)[];
  variants: Record<string, VariantOutcome>;
}

export type VariantOutcome =
  | {
      /** Per gold file (but the chat file), its place in the map's file ranking. */
      ranks: (number | null)[];
      /** Per budget, per gold file (but the chat file), whether the map names it. */
      named: Record<string, boolean[]>;
      seconds: number;
      /** The gold file the map was made with as its chat file (the `chatOnGold` variants): not scored. */
      chatFile?: string;
    }
  | { error: string };

export interface SliceResults {
  outcomes: SliceOutcome[];
  skipped: string[];
  seconds: number;
}

export interface SliceOutcome {
  slice: string;
  /** Whether the slice's import graph has any edge: without one, imports and callers are n/a. */
  importEdges: number;
  chatFiles: ChatFileOutcome[];
}

export interface ChatFileOutcome {
  path: string;
  imports: number;
  callers: number;
  /** Definitions (file, line) in imported or same-folder files whose names the chat file references. */
  usedDefinitions: number;
  /** Per variant, per budget. */
  maps: Record<string, Record<string, ChatMapOutcome | { error: string }>>;
}

export interface ChatMapOutcome {
  importsNamed: number;
  callersNamed: number;
  usedShown: number;
  files: number;
  definitions: number;
}
