import type { ImportGraph } from '../imports/importGraph.js';
import type { TermCounts } from '../lexical/terms.js';
import { commonNameFlags } from './commonNames.js';
import { buildFileGraph, type FileGraphTables } from './fileGraph.js';
import { FILE_ROLES, fileRoleOf } from './fileRoles.js';
import { IDENT_FLAGS } from './weights.js';

/**
 * What ranking needs of every record, as flat arrays: identifiers interned, who defines and who
 * references each, which is aider's file graph factored through its names (see fileGraph.ts).
 * Built once from the records and stored whole (see encodeIdentifierTables), so a warm map
 * decodes no record to rank. The postings a task's text is scored on are kept apart (see
 * lexicalTables.ts).
 */

/** One file's tags, as ranking needs them. */
export interface FileTags {
  path: string;
  /** `kind` as the record has it (class, function, …), when known. */
  definitions: readonly { name: string; line: number; kind?: string }[];
  /** Each referenced name once, with how often the file references it. */
  referenceCounts: { readonly names: readonly string[]; readonly counts: readonly number[] };
  /** The terms of its path and text (src/lexical/terms.ts); none when not given. */
  terms?: TermCounts;
}

/** Read as arrays only in src/rank/: elsewhere through tableLookups.ts, and the ranked list through entryCodes.ts. */
export interface IdentifierTables extends ImportGraph {
  /** Every file, in path order: file ids index this. */
  paths: string[];
  identNames: string[];
  /** Per identifier, the name tests aider's weights make, and the task ranking's common names (see IDENT_FLAGS). */
  identFlags: Uint8Array;
  /** Per file, its role (see fileRoles.ts) as an index of FILE_ROLES. */
  fileRoles: Uint8Array;
  /** Per identifier, the files defining it (ascending): CSR over definerFiles. A definer slot is an index of definerFiles. */
  definerOffsets: Int32Array;
  definerFiles: Int32Array;
  /** Per definer slot, its identifier: stored, as deriving it from definerOffsets took 1.7 ms of a warm map. */
  slotIdents: Int32Array;
  /** Per definer slot, the 1-based lines of its definitions, ascending, and their kinds: CSR over definitionLines. */
  lineOffsets: Int32Array;
  definitionLines: Int32Array;
  /** Per definition line, its kind as an index of kindNames. */
  definitionKinds: Int32Array;
  kindNames: string[];
  /** Per identifier, the files referencing it (ascending) and how often: CSR. */
  referenceOffsets: Int32Array;
  referenceFiles: Int32Array;
  referenceCounts: Int32Array;
  /** Per definer slot, its place in (path, name) order: aider's tie-break among equal scores. */
  slotTieRanks: Int32Array;
  /**
   * Per reference slot, the weight of the edge from the referencer into each definer of the
   * name, before a request's factors: nameWeight × √(references); 0 when no file defines it.
   */
  referenceWeights: Float64Array;
  /** Per file, the total weight of its reference edges: Σ referenceWeights × definers. */
  refOutWeights: Float64Array;
  /** Per file, aider's self-edges: 0.1 for each name it defines that no file references. */
  selfWeights: Float64Array;
  /** Per file, 1 when it has an edge: only those take part in PageRank, as networkx's graph holds only them. */
  inGraph: Uint8Array;
  /** The multigraph's edge count: one edge per (referencer, definer, identifier), self-edges included. */
  edgeCount: number;
}

/**
 * The tables of a set of files (sorted here by path), with the files' resolved imports over the
 * same ids (none when not given). With no references at all, every definition counts as
 * referenced once by its definer (aider's rule).
 */
export function buildIdentifierTables(unsorted: readonly FileTags[], imports?: ImportGraph): IdentifierTables {
  const files = [...unsorted].sort((a, b) => compare(a.path, b.path));
  if (imports && imports.importOffsets.length !== files.length + 1) throw new Error('the import graph does not match the files');
  // Interned as met, renumbered in name order below.
  const identIds = new Map<string, number>();
  const intern = (name: string): number => {
    let id = identIds.get(name);
    if (id === undefined) {
      id = identIds.size;
      identIds.set(name, id);
    }
    return id;
  };
  // Typed arrays sized up front, not plain arrays grown by push: at 10,000 files the build took
  // 0.53–0.58 s instead of 0.71–0.98 s, and at 46,600 a map after an edit peaked 0.8 GB lower.
  let definitionTotal = 0;
  let referenceTotal = 0;
  for (const file of files) {
    definitionTotal += file.definitions.length;
    referenceTotal += file.referenceCounts.names.length;
  }
  const definitionIdents = new Int32Array(definitionTotal);
  const definitionFiles = new Int32Array(definitionTotal);
  const definitionLineList = new Int32Array(definitionTotal);
  const definitionKindList = new Int32Array(definitionTotal);
  const kindIds = new Map<string, number>();
  const referenceIdents = new Int32Array(referenceTotal);
  const referenceFileList = new Int32Array(referenceTotal);
  const referenceCountList = new Int32Array(referenceTotal);
  let definitionAt = 0;
  let referenceAt = 0;
  files.forEach((file, fileId) => {
    for (const definition of file.definitions) {
      definitionIdents[definitionAt] = intern(definition.name);
      definitionFiles[definitionAt] = fileId;
      definitionLineList[definitionAt] = definition.line;
      const kind = definition.kind ?? '';
      let kindId = kindIds.get(kind);
      if (kindId === undefined) {
        kindId = kindIds.size;
        kindIds.set(kind, kindId);
      }
      definitionKindList[definitionAt++] = kindId;
    }
    const { names, counts } = file.referenceCounts;
    for (let i = 0; i < names.length; i++) {
      referenceIdents[referenceAt] = intern(names[i]!);
      referenceFileList[referenceAt] = fileId;
      referenceCountList[referenceAt++] = counts[i]!;
    }
  });
  // Identifiers and kinds numbered in name order: the tables after a change are then a merge of the tables before it (see patchTables.ts).
  const identNames = inNameOrder(identIds, definitionIdents, referenceIdents);
  const kindNames = inNameOrder(kindIds, definitionKindList);
  const identCount = identNames.length;
  const definers = groupByIdent(identCount, definitionIdents, definitionFiles, null);
  const anyReference = referenceIdents.length > 0;
  const references = anyReference
    ? groupByIdent(identCount, referenceIdents, referenceFileList, referenceCountList)
    : groupByIdent(identCount, definitionIdents, definitionFiles, null);
  if (!anyReference) references.counts.fill(1);
  const lines = linesBySlot(definers, definitionLineList, definitionKindList);
  const paths = files.map((file) => file.path);
  return tablesOf({
    paths,
    fileRoles: Uint8Array.from(paths, fileRoleIndex),
    identNames,
    identFlags: Uint8Array.from(identNames, nameFlags),
    kindNames,
    definerOffsets: definers.offsets,
    definerFiles: definers.files,
    lineOffsets: lines.offsets,
    definitionLines: lines.values,
    definitionKinds: lines.kinds,
    referenceOffsets: references.offsets,
    referenceFiles: references.files,
    referenceCounts: references.counts,
    importOffsets: imports?.importOffsets ?? new Int32Array(files.length + 1),
    importTargets: imports?.importTargets ?? new Int32Array(0),
  });
}

/**
 * The names of `ids` (a map from name to the id it was interned as) in name order; each id
 * list is rewritten in place to the names' places in that order.
 */
function inNameOrder(ids: ReadonlyMap<string, number>, ...idLists: Int32Array[]): string[] {
  const names = [...ids.keys()].sort();
  const placeOf = new Int32Array(names.length);
  names.forEach((name, place) => {
    placeOf[ids.get(name)!] = place;
  });
  for (const list of idLists) for (let i = 0; i < list.length; i++) list[i] = placeOf[list[i]!]!;
  return names;
}

/** The parts of the tables that are built from the rest: what a build and a patch (patchTables.ts) share. */
export type TablesCore = Omit<TagTables, 'slotIdents' | 'slotTieRanks'>;

/** The tables from their core: the name tests that need the whole tables, each slot's identifier and place, the file graph. */
export function tablesOf(core: TablesCore): IdentifierTables {
  const slotIdents = slotIdentsOf(core.definerOffsets);
  const common = commonNameFlags(core);
  const identFlags = core.identFlags;
  for (let ident = 0; ident < identFlags.length; ident++) identFlags[ident] = (identFlags[ident]! & NAME_FLAGS) | common[ident]!;
  const tables: TagTables = {
    ...core,
    slotIdents,
    slotTieRanks: tieRanks(core.paths.length, core.definerFiles),
  };
  return { ...tables, ...buildFileGraph(tables) };
}

/** A file's role (fileRoles.ts) as its index in FILE_ROLES. */
export function fileRoleIndex(path: string): number {
  return FILE_ROLES.indexOf(fileRoleOf(path));
}

/** The flags a name gives by itself. */
const NAME_FLAGS = IDENT_FLAGS.longStructured | IDENT_FLAGS.private;

export function nameFlags(name: string): number {
  return (isLongStructuredName(name) ? IDENT_FLAGS.longStructured : 0) | (name.startsWith('_') ? IDENT_FLAGS.private : 0);
}

/** The tables without the file graph, which is built from them. */
export type TagTables = Omit<IdentifierTables, keyof FileGraphTables>;

/**
 * Slots by (file, name), ascending: each slot's place. Slots come in identifier order, which is
 * name order, so a stable counting sort by file is that order.
 */
function tieRanks(fileCount: number, definerFiles: Int32Array): Int32Array {
  const starts = new Int32Array(fileCount + 1);
  for (const file of definerFiles) starts[file + 1]!++;
  for (let file = 0; file < fileCount; file++) starts[file + 1]! += starts[file]!;
  const ranks = new Int32Array(definerFiles.length);
  for (let slot = 0; slot < definerFiles.length; slot++) ranks[slot] = starts[definerFiles[slot]!]!++;
  return ranks;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function slotIdentsOf(definerOffsets: Int32Array): Int32Array {
  const identCount = definerOffsets.length - 1;
  const slotIdents = new Int32Array(definerOffsets[identCount]!);
  for (let ident = 0; ident < identCount; ident++) slotIdents.fill(ident, definerOffsets[ident]!, definerOffsets[ident + 1]!);
  return slotIdents;
}

/** snake_case, kebab-case or camelCase, 8 characters or more (aider's test). */
function isLongStructuredName(name: string): boolean {
  if (name.length < 8) return false;
  const hasAlpha = /\p{L}/u.test(name);
  const snake = name.includes('_') && hasAlpha;
  const kebab = name.includes('-') && hasAlpha;
  const camel = /\p{Lu}/u.test(name) && /\p{Ll}/u.test(name);
  return snake || kebab || camel;
}

interface Grouped {
  offsets: Int32Array;
  files: Int32Array;
  counts: Int32Array;
  /** Per occurrence, the slot (index of files) it was merged into. */
  slotOf: Int32Array;
}

/**
 * (identifier, file, count) occurrences grouped by identifier with a counting sort (a null
 * `occurrences` counts each once); occurrences come in ascending file order, so each group's
 * files are ascending and repeats are adjacent.
 */
function groupByIdent(identCount: number, idents: Int32Array, fileIds: Int32Array, occurrences: Int32Array | null): Grouped {
  const starts = new Int32Array(identCount + 1);
  for (const ident of idents) starts[ident + 1]!++;
  for (let i = 0; i < identCount; i++) starts[i + 1]! += starts[i]!;
  const order = new Int32Array(idents.length);
  const cursor = starts.slice(0, identCount);
  for (let i = 0; i < idents.length; i++) order[cursor[idents[i]!]!++] = i;
  const offsets = new Int32Array(identCount + 1);
  const files = new Int32Array(idents.length);
  const counts = new Int32Array(idents.length);
  const slotOf = new Int32Array(idents.length);
  let out = 0;
  for (let ident = 0; ident < identCount; ident++) {
    offsets[ident] = out;
    for (let k = starts[ident]!; k < starts[ident + 1]!; k++) {
      const occurrence = order[k]!;
      const count = occurrences ? occurrences[occurrence]! : 1;
      if (out > offsets[ident]! && files[out - 1] === fileIds[occurrence]) {
        counts[out - 1]! += count;
      } else {
        files[out] = fileIds[occurrence]!;
        counts[out++] = count;
      }
      slotOf[occurrence] = out - 1;
    }
  }
  offsets[identCount] = out;
  return { offsets, files: files.slice(0, out), counts: counts.slice(0, out), slotOf };
}

/** Each definer slot's definition lines, ascending, with their kinds, as CSR. */
function linesBySlot(definers: Grouped, lines: Int32Array, kinds: Int32Array): { offsets: Int32Array; values: Int32Array; kinds: Int32Array } {
  const slotCount = definers.files.length;
  const offsets = new Int32Array(slotCount + 1);
  for (let i = 0; i < lines.length; i++) offsets[definers.slotOf[i]! + 1]!++;
  for (let s = 0; s < slotCount; s++) offsets[s + 1]! += offsets[s]!;
  const order = new Int32Array(lines.length);
  const cursor = offsets.slice(0, slotCount);
  for (let i = 0; i < lines.length; i++) order[cursor[definers.slotOf[i]!]!++] = i;
  for (let s = 0; s < slotCount; s++) order.subarray(offsets[s]!, offsets[s + 1]!).sort((a, b) => lines[a]! - lines[b]!);
  return { offsets, values: order.map((i) => lines[i]!), kinds: order.map((i) => kinds[i]!) };
}
