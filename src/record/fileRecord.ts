import { countTerms, type TermCounts } from '../lexical/terms.js';
import type { Language } from './languageNames.js';

/**
 * The per-file record a worker builds and the store keeps: everything `map`, `tags` and the
 * output formats need, so that a warm run reads no source file.
 */

/** Bump on any change to FileRecord's shape or meaning, or to the store's layout: the store's name carries it. */
export const RECORD_VERSION = 15;

export { LANGUAGES, type Language } from './languageNames.js';

/**
 * What a stored record is checked against: the file's stat when the run that made the record
 * found it. ctime and inode catch an edit whose mtime and size were put back (`touch -r`,
 * `cp -p`, `rsync -a`), which no tool can do to ctime.
 */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ctimeMs: number;
  ino: number;
}

/** The stamp of a record made from no file of the root: it matches no file, so the next run reads the file again. */
export const NO_FILE_STAMP: FileStamp = { mtimeMs: Number.NaN, size: Number.NaN, ctimeMs: Number.NaN, ino: Number.NaN };

/**
 * Why a file has no tags. A file that parsed but defines nothing has no reason. `not-regular` and
 * `outside-root`: what the file's name led to when it was opened (a FIFO, a symlink out of the root).
 */
export type SkipReason =
  | 'no-grammar'
  | 'empty'
  | 'too-large'
  | 'binary'
  | 'invalid-utf8'
  | 'unreadable'
  | 'timeout'
  | 'worker-error'
  | 'quarantined'
  | 'not-regular'
  | 'outside-root';

/**
 * Why a discovered file has no record at all (so this is no SkipReason: no record stores it): a
 * name that is not UTF-8 cannot be a record's path, no JavaScript string gives its bytes back.
 */
export type NameSkipReason = 'name-not-utf8';

export interface Definition {
  name: string;
  /** class, function, method, interface, type, enum, module, constant, macro, … (from the query). */
  kind: string;
  /** 1-based line of the name. */
  line: number;
  /** 1-based last line of the whole definition. */
  endLine: number;
  /**
   * 1-based lines of the enclosing scope headers a rendering shows with this definition
   * (grep-ast's parent-scope rule, see workers/scopeHeaders.ts), ascending.
   */
  scopeLines: number[];
  /** The definition's head: its text up to its body, whitespace collapsed. */
  signature: string;
  /** First line of its doc comment or docstring, markers stripped; '' when it has none. */
  doc: string;
}

/** References as parallel arrays: a map decodes thousands of them per file. */
export interface References {
  names: string[];
  /** 1-based; −1 for identifier-fallback references (aider's convention). */
  lines: number[];
  /** call, type, new, implementation, identifier, … (from the query). */
  kinds: string[];
}

/**
 * A file's import statements as written, as parallel arrays, one entry per module named: a
 * statement naming several (`import a, b`) gives several entries.
 * - Python: the module as written (`a.b`, `..x`); `from m import a, b as c` takes [`a`, `b`],
 *   `from m import *` takes [`*`].
 * - JavaScript, TypeScript: the specifier (`./y`, `pkg/sub`); `import { a, b as c }` and
 *   `export { a } from` take the names they name in the module, `export * from` takes [`*`].
 * - Go: the import path (`github.com/x/y`).
 * - Java: the name after `import` (`a.b.C`, `a.b.C.m` when static); a wildcard import gives its
 *   prefix taking the name `*` (`import a.b.*;` → `a.b`, names [`*`]).
 * - Rust: one entry per path of a use tree, in full (`use crate::a::{b::C, d as e, *}` →
 *   `crate::a::b::C`, `crate::a::d`, `crate::a::*`), paths written inside inline modules
 *   rewritten to start from the file's module (`mod t { use super::x; }` → `self::x`); a
 *   body-less `mod x;` → `self::x`; `extern crate x;` → `x`. Names are always [].
 */
export interface Imports {
  /** The module as written: `a.b`, `..x`, `./y`, `github.com/x/y`, `crate::a::b::C`, `a.b.C`. */
  modules: string[];
  /** Per entry, the names taken from the module (`from m import a, b`, Java's `*`); [] for the module itself. */
  names: string[][];
  /**
   * Per entry, the 1-based line where its module is first written: the specifier's line (the
   * last of a multi-line `import { … } from './x'`), a Rust use declaration's first line.
   */
  lines: number[];
}

/** Distinct names with how often each occurs, in order of first occurrence. */
export interface NameCounts {
  names: string[];
  counts: number[];
}

/** `FileStamp`: the stamp of the file as it was read, which the record is valid for. */
export interface FileRecord extends FileStamp {
  /** Relative to the root, `/`-separated. */
  path: string;
  /** The content id (see contentId.ts) of the bytes the record was made from; '' when it was made without reading them. */
  content: string;
  language: Language | null;
  lineCount: number;
  definitions: Definition[];
  references: References;
  /** The references' names counted: what ranking needs, a fraction of the occurrences to read. */
  referenceCounts: NameCounts;
  /** Import statements as written; resolved to files when the ranking tables are built (see src/imports/). */
  imports: Imports;
  /** The package the file declares (Java's `package a.b;`); '' when it declares none. */
  packageName: string;
  /** The terms of the file's path and text (identifiers split, comments, strings), for lexical ranking (see src/lexical/terms.ts). */
  terms: TermCounts;
  /**
   * Text of every line a rendering can show: definition and scope lines and their
   * neighbours (for gap closing), as parallel arrays, lines 1-based ascending.
   */
  lineNumbers: number[];
  lineTexts: string[];
  /**
   * Per definition line, the 1-based lines the signatures style shows with it, ascending: the
   * heads of the scopes whose body encloses it, then its own head (see workers/signatureLines.ts);
   * only for lines that show more than themselves. Kept apart from the definitions: only
   * rendering reads them.
   */
  signatures: [line: number, signatureLines: number[]][];
  skipped: SkipReason | null;
}

/** What a rendering reads of a record (stored apart, so a map decodes no tags to render). */
export type RenderPart = Pick<FileRecord, 'lineCount' | 'lineNumbers' | 'lineTexts' | 'signatures'> & {
  /** Each definition line with the scope header lines shown with it, for those that have any. */
  scopes: [line: number, scopeLines: number[]][];
};

/** What ranking reads of a record (stored apart, so rebuilding the identifier tables decodes no references). */
export type RankPart = Pick<FileRecord, 'definitions' | 'referenceCounts' | 'imports' | 'packageName' | 'terms'>;

export function renderPartOf(record: FileRecord): RenderPart {
  const { lineCount, lineNumbers, lineTexts, signatures, definitions } = record;
  const scopes = definitions.filter((definition) => definition.scopeLines.length > 0).map(({ line, scopeLines }): [number, number[]] => [line, scopeLines]);
  return { lineCount, lineNumbers, lineTexts, scopes, signatures };
}

/** Names counted, in order of first occurrence. */
export function countNames(names: readonly string[]): NameCounts {
  const index = new Map<string, number>();
  const counted: NameCounts = { names: [], counts: [] };
  for (const name of names) {
    const at = index.get(name);
    if (at === undefined) {
      index.set(name, counted.names.length);
      counted.names.push(name);
      counted.counts.push(1);
    } else {
      counted.counts[at]!++;
    }
  }
  return counted;
}

/** A record for a file that yields no tags. */
export function emptyRecord(path: string, stamp: FileStamp, language: Language | null, skipped: SkipReason | null): FileRecord {
  const { mtimeMs, size, ctimeMs, ino } = stamp;
  return {
    path,
    content: '',
    mtimeMs,
    size,
    ctimeMs,
    ino,
    language,
    lineCount: 0,
    definitions: [],
    references: { names: [], lines: [], kinds: [] },
    referenceCounts: { names: [], counts: [] },
    imports: { modules: [], names: [], lines: [] },
    packageName: '',
    // A file with no tags is still found by its path.
    terms: countTerms(path),
    lineNumbers: [],
    lineTexts: [],
    signatures: [],
    skipped,
  };
}
