import type { IdentifierTables } from './identifierTables.js';
import { linesOfSlot, nameOfSlot, pathOfFile, pathOfSlot } from './tableLookups.js';

/**
 * An entry of the ranked list as one number, so that lists of them (built and filtered on
 * every map) are flat: made by definitionEntry and bareFileEntry, read by entryOf and
 * bareFileOf. A definer slot is itself; a bare file is −1 − its id.
 */
declare const entryCodeBrand: unique symbol;
export type EntryCode = number & { readonly [entryCodeBrand]: true };

/** An entry of the ranked list: a file's definitions of one name (their lines, ascending), or a bare file (name null, no lines). */
export interface RankedEntry {
  path: string;
  name: string | null;
  lines: Int32Array;
}

export function definitionEntry(slot: number): EntryCode {
  return slot as EntryCode;
}

export function bareFileEntry(fileId: number): EntryCode {
  return (-1 - fileId) as EntryCode;
}

/** The file of a bare file entry; −1 for a definitions entry. */
export function bareFileOf(code: EntryCode): number {
  return code < 0 ? -1 - code : -1;
}

const NO_LINES = new Int32Array(0);

export function entryOf(tables: IdentifierTables, code: EntryCode): RankedEntry {
  if (code < 0) return { path: pathOfFile(tables, -1 - code), name: null, lines: NO_LINES };
  return { path: pathOfSlot(tables, code), name: nameOfSlot(tables, code), lines: linesOfSlot(tables, code) };
}
