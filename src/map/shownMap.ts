import type { MapStyle } from '../options/libraryOptions.js';
import type { EntryCode } from '../rank/entryCodes.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { definitionsOfSlot, fileIdOf, fileOfSlot, linesOfSlot, nameOfSlot, pathOfFile, pathOfSlot, slotsOfFiles } from '../rank/tableLookups.js';
import type { RenderPart } from '../record/fileRecord.js';

/**
 * What a map shows, as plain data (arrays and numbers: it survives JSON.stringify), made from
 * the entries the map rendered and the records rendering read, so that a consumer need not
 * parse the text. The records are taken while the store is open (shownRenderParts); the rest can
 * be made later, when asked, from them and the tables.
 */

export interface ShownDefinition {
  name: string;
  /** As the record has it (class, function, method, …); '' when it has none. */
  kind: string;
  /** 1-based line of its name. */
  line: number;
  /**
   * The lines shown for its own head, its line included, ascending: with the signatures style
   * its decorators and every line of a head that spans several; with aider's style its line alone.
   */
  signatureLines: number[];
  /** The lines of the enclosing scopes' heads shown with it (a class's `class` line for a method), ascending. */
  scopeLines: number[];
}

export interface ShownFile {
  path: string;
  /** The file's rank, as `files[].rank` of the ranking has it (0 for a file the ranking gave none). */
  rank: number;
  /** `lines`: a `path:` block with its definitions' lines; `path`: the path alone. */
  shownAs: 'lines' | 'path';
  /** In the order the map ranks them; [] for a file shown as a path. */
  definitions: ShownDefinition[];
}

export interface ShownOptions {
  style: MapStyle;
  chatFiles: ReadonlySet<string>;
  /** The ranking's file ranks, for the files it ranked. */
  fileRanks: readonly { path: string; rank: number }[];
  renderPart: (path: string) => RenderPart | undefined;
}

/** The records shownFiles reads for `codes`, by path: taken while the store is open, so that it can run once the store is closed. */
export function shownRenderParts(
  codes: readonly EntryCode[],
  tables: IdentifierTables,
  renderPart: (path: string) => RenderPart | undefined,
): Map<string, RenderPart | undefined> {
  const parts = new Map<string, RenderPart | undefined>();
  for (const code of codes) {
    const path = code >= 0 ? pathOfSlot(tables, code) : null;
    if (path !== null && !parts.has(path)) parts.set(path, renderPart(path));
  }
  return parts;
}

/**
 * The files the rendering of `codes` shows, in the order the codes first name them (the map's
 * ranked order), each with the definitions it shows and, per definition, exactly the lines the
 * rendered block shows for it (lines 1 to the file's line count, as renderMap keeps them). With
 * aider's style, a block also shows the lines grep-ast adds to close small gaps: they belong to
 * no definition and are in none of the lists.
 */
export function shownFiles(codes: readonly EntryCode[], tables: IdentifierTables, options: ShownOptions): ShownFile[] {
  const slotsByFile = new Map<number, number[]>();
  for (const code of codes) {
    const file = code < 0 ? -1 - code : fileOfSlot(tables, code);
    if (options.chatFiles.has(pathOfFile(tables, file))) continue;
    let slots = slotsByFile.get(file);
    if (!slots) {
      slots = [];
      slotsByFile.set(file, slots);
    }
    if (code >= 0 && !slots.includes(code)) slots.push(code);
  }
  const ranks = new Map<number, number>();
  for (const { path, rank } of options.fileRanks) {
    const file = fileIdOf(tables, path);
    if (file !== undefined && slotsByFile.has(file)) ranks.set(file, rank);
  }
  // The signatures style's split of a definition's lines reads which lines start other definitions.
  const withLines = new Set([...slotsByFile].filter(([, slots]) => slots.length > 0).map(([file]) => file));
  const definitionLines = new Map<number, Set<number>>();
  if (options.style !== 'aider') {
    for (const [file, slots] of slotsOfFiles(tables, withLines))
      definitionLines.set(file, new Set(slots.flatMap((slot) => Array.from(linesOfSlot(tables, slot)))));
  }
  const shown: ShownFile[] = [];
  for (const [file, slots] of slotsByFile) {
    const path = pathOfFile(tables, file);
    const record = slots.length > 0 ? options.renderPart(path) : undefined;
    const definitions = record ? shownDefinitions(tables, slots, record, options.style, definitionLines.get(file) ?? new Set()) : [];
    shown.push({ path, rank: ranks.get(file) ?? 0, shownAs: record ? 'lines' : 'path', definitions });
  }
  return shown;
}

function shownDefinitions(
  tables: IdentifierTables,
  slots: readonly number[],
  record: RenderPart,
  style: MapStyle,
  definitionLines: ReadonlySet<number>,
): ShownDefinition[] {
  const inFile = (line: number) => line >= 1 && line <= record.lineCount;
  const linesShown = new Map<number, number[]>(style === 'aider' ? record.scopes : record.signatures);
  const definitions: ShownDefinition[] = [];
  for (const slot of slots) {
    const name = nameOfSlot(tables, slot);
    for (const { line, kind } of definitionsOfSlot(tables, slot)) {
      if (!inFile(line) || definitions.some((shown) => shown.line === line && shown.name === name)) continue;
      const withIt = (linesShown.get(line) ?? []).filter((shownLine) => shownLine !== line && inFile(shownLine));
      if (style === 'aider') {
        definitions.push({ name, kind, line, signatureLines: [line], scopeLines: withIt });
        continue;
      }
      const scope = enclosingHeads(line, withIt, linesShown, definitionLines);
      const signatureLines = [...withIt.filter((shownLine) => !scope.has(shownLine)), line].sort((a, b) => a - b);
      definitions.push({ name, kind, line, signatureLines, scopeLines: withIt.filter((shownLine) => scope.has(shownLine)) });
    }
  }
  return definitions;
}

/**
 * Of the lines the signatures style shows with the definition at `line` (the heads of the scopes
 * enclosing it, then its own head: stored as one list), those of the enclosing heads: each other
 * definition shown with it that starts before it is the head of an enclosing scope, and the
 * lines shown with both are that head's (its decorators and the lines of a head spanning several).
 * A scope no definition names (a Rust `impl`, an object literal) counts as part of the head.
 */
function enclosingHeads(
  line: number,
  withIt: readonly number[],
  linesShown: ReadonlyMap<number, readonly number[]>,
  definitionLines: ReadonlySet<number>,
): Set<number> {
  const heads = new Set<number>();
  const shownWithIt = new Set(withIt);
  for (const other of withIt) {
    if (other >= line || !definitionLines.has(other)) continue;
    heads.add(other);
    for (const headLine of linesShown.get(other) ?? []) if (shownWithIt.has(headLine)) heads.add(headLine);
  }
  return heads;
}
