import type { IdentifierTables } from './identifierTables.js';

/**
 * The identifier tables as code outside src/rank/ reads them: by path, by name, and by definer
 * slot (one file's definitions of one name), never through the arrays' offsets.
 */

export interface SlotDefinition {
  line: number;
  /** As the record has it (class, function, …); '' when it has none. */
  kind: string;
}

/** Every file's path, in path order: a file id is an index of it. */
export function filePaths(tables: IdentifierTables): readonly string[] {
  return tables.paths;
}

export function pathOfFile(tables: IdentifierTables, fileId: number): string {
  return tables.paths[fileId]!;
}

const fileIds = new WeakMap<IdentifierTables, Map<string, number>>();

/** The id of the file at `path`, if the tables have it. */
export function fileIdOf(tables: IdentifierTables, path: string): number | undefined {
  let ids = fileIds.get(tables);
  if (!ids) {
    ids = idsByName(tables.paths);
    fileIds.set(tables, ids);
  }
  return ids.get(path);
}

/**
 * A scan of the names costs about 1/250 of indexing them (5 µs against 1 ms at 7,000 names), so
 * names are scanned for until the scans have cost about what the index would, then indexed:
 * a map that names a few identifiers, or none, pays no index, and many lookups pay one.
 */
const SCANS_BEFORE_INDEX = 250;
const identLookups = new WeakMap<IdentifierTables, { scans: number; ids: Map<string, number> | null }>();

/** The identifier's id, or −1 when no file has it. */
export function identOf(tables: IdentifierTables, name: string): number {
  let lookups = identLookups.get(tables);
  if (!lookups) {
    lookups = { scans: 0, ids: null };
    identLookups.set(tables, lookups);
  }
  if (!lookups.ids && ++lookups.scans <= SCANS_BEFORE_INDEX) return tables.identNames.indexOf(name);
  lookups.ids ??= idsByName(tables.identNames);
  return lookups.ids.get(name) ?? -1;
}

function idsByName(names: readonly string[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (let id = 0; id < names.length; id++) ids.set(names[id]!, id);
  return ids;
}

/** The definer slots of a name, one per file defining it, in path order. */
export function definerSlots(tables: IdentifierTables, name: string): number[] {
  const ident = identOf(tables, name);
  const slots: number[] = [];
  if (ident >= 0) for (let slot = tables.definerOffsets[ident]!; slot < tables.definerOffsets[ident + 1]!; slot++) slots.push(slot);
  return slots;
}

export function fileOfSlot(tables: IdentifierTables, slot: number): number {
  return tables.definerFiles[slot]!;
}

export function pathOfSlot(tables: IdentifierTables, slot: number): string {
  return tables.paths[tables.definerFiles[slot]!]!;
}

export function nameOfSlot(tables: IdentifierTables, slot: number): string {
  return tables.identNames[tables.slotIdents[slot]!]!;
}

/** The 1-based lines of a slot's definitions, ascending: a view of the tables, not to be written. */
export function linesOfSlot(tables: IdentifierTables, slot: number): Int32Array {
  return tables.definitionLines.subarray(tables.lineOffsets[slot]!, tables.lineOffsets[slot + 1]!);
}

/** A slot's definitions by line, with their kinds. */
export function definitionsOfSlot(tables: IdentifierTables, slot: number): SlotDefinition[] {
  const definitions: SlotDefinition[] = [];
  for (let at = tables.lineOffsets[slot]!; at < tables.lineOffsets[slot + 1]!; at++) {
    definitions.push({ line: tables.definitionLines[at]!, kind: tables.kindNames[tables.definitionKinds[at]!]! });
  }
  return definitions;
}

/** Every identifier's name: an identifier id is an index of it. */
export function identifierNames(tables: IdentifierTables): readonly string[] {
  return tables.identNames;
}

/** The files a file's resolved imports name, by id, ascending: a view of the tables, not to be written. */
export function importsOf(tables: IdentifierTables, fileId: number): Int32Array {
  return tables.importTargets.subarray(tables.importOffsets[fileId]!, tables.importOffsets[fileId + 1]!);
}

const importerLists = new WeakMap<IdentifierTables, number[][]>();

/** The files whose resolved imports name a file, by id, ascending. */
export function importersOf(tables: IdentifierTables, fileId: number): readonly number[] {
  let importers = importerLists.get(tables);
  if (!importers) {
    const lists: number[][] = tables.paths.map(() => []);
    for (let importer = 0; importer < tables.paths.length; importer++) for (const target of importsOf(tables, importer)) lists[target]!.push(importer);
    importers = lists;
    importerLists.set(tables, importers);
  }
  return importers[fileId]!;
}

const referencedLists = new WeakMap<IdentifierTables, number[][]>();

/** The names a file references (each once, by identifier id order); with no references anywhere, the names it defines (aider's fallback). */
export function referencedNames(tables: IdentifierTables, fileId: number): string[] {
  let referenced = referencedLists.get(tables);
  if (!referenced) {
    const lists: number[][] = tables.paths.map(() => []);
    for (let ident = 0; ident < tables.identNames.length; ident++) {
      for (let slot = tables.referenceOffsets[ident]!; slot < tables.referenceOffsets[ident + 1]!; slot++) lists[tables.referenceFiles[slot]!]!.push(ident);
    }
    referenced = lists;
    referencedLists.set(tables, referenced);
  }
  return referenced[fileId]!.map((ident) => tables.identNames[ident]!);
}

/** The files referencing a name, by id, ascending, each with how often it does. */
export function referencersOf(tables: IdentifierTables, name: string): { fileId: number; count: number }[] {
  const ident = identOf(tables, name);
  const referencers: { fileId: number; count: number }[] = [];
  if (ident < 0) return referencers;
  for (let slot = tables.referenceOffsets[ident]!; slot < tables.referenceOffsets[ident + 1]!; slot++) {
    referencers.push({ fileId: tables.referenceFiles[slot]!, count: tables.referenceCounts[slot]! });
  }
  return referencers;
}

/** Every name some file defines, in identifier id order. */
export function definedNames(tables: IdentifierTables): string[] {
  const names: string[] = [];
  for (let ident = 0; ident < tables.identNames.length; ident++)
    if (tables.definerOffsets[ident + 1]! > tables.definerOffsets[ident]!) names.push(tables.identNames[ident]!);
  return names;
}

/** The definer slots of each of `files` (by id), ascending, in one pass over the slots. */
export function slotsOfFiles(tables: IdentifierTables, files: ReadonlySet<number>): Map<number, number[]> {
  const slots = new Map<number, number[]>();
  const wanted = new Uint8Array(tables.paths.length);
  for (const file of files) {
    slots.set(file, []);
    wanted[file] = 1;
  }
  const { definerFiles } = tables;
  for (let slot = 0; slot < definerFiles.length; slot++) if (wanted[definerFiles[slot]!]) slots.get(definerFiles[slot]!)!.push(slot);
  return slots;
}
