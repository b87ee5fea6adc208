import type { IdentifierTables } from './identifierTables.js';

/**
 * An entry of the ranked list as one number, so that lists of them (built and filtered on
 * every map) are flat: read by entryOf. A definer slot is itself (rankDefinitions
 * lists them so); a bare file is −1 − its id (bareFileEntry).
 */
declare const entryCodeBrand: unique symbol;
export type EntryCode = number & { readonly [entryCodeBrand]: true };

/** An entry of the ranked list: a file's definitions of one name (their lines, ascending), or a bare file (name null, no lines). */
export interface RankedEntry {
  path: string;
  name: string | null;
  lines: Int32Array;
}

export function bareFileEntry(fileId: number): EntryCode {
  return (-1 - fileId) as EntryCode;
}

/** Appends `codes` to `list`, but the bare file entries of the files `leftOut` marks (by file id). */
export function appendWithoutBareFiles(list: EntryCode[], codes: readonly EntryCode[], leftOut: Uint8Array): void {
  for (const code of codes) if (code >= 0 || !leftOut[-1 - code]) list.push(code);
}

const NO_LINES = new Int32Array(0);

/** Reads the arrays itself: the packer's search reads thousands of entries in a process still cold. */
export function entryOf(tables: IdentifierTables, code: EntryCode): RankedEntry {
  if (code < 0) return { path: tables.paths[-1 - code]!, name: null, lines: NO_LINES };
  return {
    path: tables.paths[tables.definerFiles[code]!]!,
    name: tables.identNames[tables.slotIdents[code]!]!,
    lines: tables.definitionLines.subarray(tables.lineOffsets[code]!, tables.lineOffsets[code + 1]!),
  };
}
