import type { Imports, Language } from '../record/fileRecord.js';

/** One file's imports as the resolvers read them (from its record's rank part). */
export interface ImportingFile {
  path: string;
  language: Language | null;
  imports: Imports;
  packageName: string;
  /** The names the file gives importers (its top-level definitions'): where a re-export hub's names end (see reExports.ts). */
  definedNames: readonly string[];
}

/**
 * The repository as a resolver sees it: its root, its indexed files, and a way to read the
 * manifests a language's rules need (go.mod, Cargo.toml, tsconfig.json, package.json).
 */
export interface Repository {
  /** Absolute. */
  root: string;
  /** Every indexed file, relative to the root, `/`-separated. */
  paths: ReadonlySet<string>;
  /** A file's text by relative path; undefined when it cannot be read (or is outside the root). */
  readText(path: string): string | undefined;
}

/**
 * Resolves the imports of one language family's files (all of them, with imports or without):
 * for each file (in the order given), for each entry of its imports, the repository files the
 * entry names ([] when none: a third-party or standard-library module, or a name no file defines),
 * and, for languages whose packages re-export, how to see through them.
 */
export type LanguageResolver = (files: readonly ImportingFile[], repository: Repository) => Resolution;

export interface Resolution {
  /** Per file, per entry, the repository files it names. */
  targets: (readonly string[])[][];
  /** Absent where packages pass nothing on (Go, Java: an import names the defining files already). */
  hubs?: HubRules;
}

/** How a language's modules pass on names they import (`__init__.py`, `mod.rs`, `index.ts`). */
export interface HubRules {
  /** Whether an entry naming `path` is followed on to the files defining the names it takes. */
  isHub(path: string): boolean;
  /**
   * The names entry `entry` of the family's file `file` (its index in the order given) takes
   * from its target `target`: `*` takes every name, [] takes the module itself.
   */
  takenNames(file: number, entry: number, target: string): readonly string[];
}

/** Files linked by their resolved imports, by file id of the ranking tables (path order). */
export interface ImportGraph {
  /** CSR: the files file `f` imports are importTargets[importOffsets[f] .. importOffsets[f + 1]], ascending, without f. */
  importOffsets: Int32Array;
  importTargets: Int32Array;
}

/** How many import entries of each language named a repository file. */
export interface ImportCounts {
  entries: number;
  resolved: number;
}
