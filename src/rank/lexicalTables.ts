import { buildPostings, type Postings } from '../lexical/postings.js';
import { countPathTerms, countTerms, type TermCounts } from '../lexical/terms.js';
import type { FileTags } from './identifierTables.js';

/**
 * The lexical tables: postings of three kinds of terms, over the identifier tables' file ids.
 * Only a ranking with a task's text reads them, and they are two thirds of every byte derived
 * from the records (29 of 43 MB at 9,320 files), so they are kept apart from the identifier
 * tables: a map without a task neither reads nor patches them (see DerivedTables.lexicalTables).
 */
export interface LexicalTables {
  /** The terms of each file's path and text. */
  textTermHashes: Int32Array;
  textTermOffsets: Int32Array;
  textTermFiles: Int32Array;
  textTermCounts: Int32Array;
  textFileTotals: Int32Array;
  /** The terms of the names each file defines. */
  nameTermHashes: Int32Array;
  nameTermOffsets: Int32Array;
  nameTermFiles: Int32Array;
  nameTermCounts: Int32Array;
  nameFileTotals: Int32Array;
  /** The terms of each file's path alone (countPathTerms). */
  pathTermHashes: Int32Array;
  pathTermOffsets: Int32Array;
  pathTermFiles: Int32Array;
  pathTermCounts: Int32Array;
  pathFileTotals: Int32Array;
}

/** The lexical tables of a set of files, by their ids in path order (as buildIdentifierTables numbers them). */
export function buildLexicalTables(unsorted: readonly FileTags[]): LexicalTables {
  const files = [...unsorted].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return lexicalTablesFrom((kind) => buildPostings(files.map(TERMS_OF[kind])));
}

const NO_TERMS: TermCounts = { hashes: new Int32Array(0), counts: new Int32Array(0) };

/** The three kinds of terms postings are kept of. */
export type TermKind = 'text' | 'names' | 'path';

/** A file's terms of each kind. */
export const TERMS_OF: Readonly<Record<TermKind, (file: FileTags) => TermCounts>> = {
  text: (file) => file.terms ?? NO_TERMS,
  names: (file) => countTerms(file.definitions.map((definition) => definition.name).join(' ')),
  path: (file) => countPathTerms(file.path),
};

/** The lexical tables from the postings `postingsOf` makes of each kind of terms. */
export function lexicalTablesFrom(postingsOf: (kind: TermKind) => Postings): LexicalTables {
  const text = postingsOf('text');
  const names = postingsOf('names');
  const path = postingsOf('path');
  return {
    textTermHashes: text.hashes,
    textTermOffsets: text.offsets,
    textTermFiles: text.files,
    textTermCounts: text.counts,
    textFileTotals: text.fileTotals,
    nameTermHashes: names.hashes,
    nameTermOffsets: names.offsets,
    nameTermFiles: names.files,
    nameTermCounts: names.counts,
    nameFileTotals: names.fileTotals,
    pathTermHashes: path.hashes,
    pathTermOffsets: path.offsets,
    pathTermFiles: path.files,
    pathTermCounts: path.counts,
    pathFileTotals: path.fileTotals,
  };
}

/** The postings of each file's text terms, of its defined names' terms, or of its path's terms. */
export function postingsOf(tables: LexicalTables, kind: TermKind): Postings {
  switch (kind) {
    case 'text':
      return {
        hashes: tables.textTermHashes,
        offsets: tables.textTermOffsets,
        files: tables.textTermFiles,
        counts: tables.textTermCounts,
        fileTotals: tables.textFileTotals,
      };
    case 'names':
      return {
        hashes: tables.nameTermHashes,
        offsets: tables.nameTermOffsets,
        files: tables.nameTermFiles,
        counts: tables.nameTermCounts,
        fileTotals: tables.nameFileTotals,
      };
    case 'path':
      return {
        hashes: tables.pathTermHashes,
        offsets: tables.pathTermOffsets,
        files: tables.pathTermFiles,
        counts: tables.pathTermCounts,
        fileTotals: tables.pathFileTotals,
      };
  }
}

/** How many files the tables are over. */
export function lexicalFileCount(tables: LexicalTables): number {
  return tables.textFileTotals.length;
}
