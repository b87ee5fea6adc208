import type { OUTLINE_DETAILS } from '../options/optionTable.js';
import type { Language } from '../record/languageNames.js';
import type { MapFormatName } from '../render/formats.js';

/** What `repomap outline` returns (src/navigate/outline.ts) and its formats render (src/render/): plain data, ready for JSON. */

/** files: the tree of paths; signatures: each definition's head; full: its first doc line too. */
export type OutlineDetail = (typeof OUTLINE_DETAILS)[number];

export interface OutlineOptions {
  /** A file or folder inside the root, as the user gave it (see RepoView.repoEntry); default the whole root. */
  path?: string;
  detail?: OutlineDetail;
  /** How `text` is written: a format of src/render/formats.ts's OUTLINE_FORMATS; default text. */
  format?: MapFormatName;
  /** Levels of folders shown below PATH (0: its own files only); the files of deeper folders are counted in the deepest one shown. Default: all. */
  depth?: number;
  /** Only files of these languages; default every indexed file, those of no language too. */
  languages?: readonly Language[];
  /** Keep test files (src/rank/fileRoles.ts), left out by default unless PATH is itself a test file or folder. */
  tests?: boolean;
  /** cl100k tokens the text may take, never exceeded; default DEFAULTS.outlineTokens; null: no limit. */
  maxTokens?: number | null;
}

export interface OutlineDefinition {
  name: string;
  kind: string;
  /** 1-based line of the name, and the definition's last. */
  line: number;
  endLine: number;
  signature: string;
  /** Its first doc line with detail `full` ('' when it has none), else ''. */
  doc: string;
  /** The definitions it contains that are shown, in line order. */
  children: OutlineDefinition[];
}

export interface OutlineFile {
  type: 'file';
  /** Relative to the root. */
  path: string;
  language: Language | null;
  /** Its shown top-level definitions in line order ([] with detail `files`). */
  definitions: OutlineDefinition[];
  /** How many of its definitions (at any level) are not shown: the budget's cut. */
  moreDefinitions: number;
}

export interface OutlineFolder {
  type: 'folder';
  /** Relative to the root, '' for the root. */
  path: string;
  /** Its shown subfolders and files, in path order. */
  entries: OutlineEntry[];
  /** How many files under it are not shown, counted here because no deeper folder of theirs is shown (by --depth or the budget). */
  moreFiles: number;
}

export type OutlineEntry = OutlineFolder | OutlineFile;

export interface Outline {
  /** PATH as a repository path ('' for the root). */
  path: string;
  detail: OutlineDetail;
  /** PATH's folder, or PATH's file. */
  tree: OutlineEntry;
  /** Files under PATH that pass the filters: shown, and in all. */
  files: { shown: number; total: number };
  /** Their definitions, shown and in all; null with detail `files`, which reads no record. */
  definitions: { shown: number; total: number } | null;
  format: MapFormatName;
  /** The rendering in `format`: each line ended by a newline. */
  text: string;
  /** The text's exact cl100k count (the sum of its lines' counts), when a budget was given; else null. */
  tokens: number | null;
  budget: number | null;
}
