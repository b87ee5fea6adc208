import type { ImportGraph } from '../imports/importGraph.js';
import { buildPostings, type Postings, termIndex } from '../lexical/postings.js';
import type { TermCounts } from '../lexical/terms.js';
import { lowerBound } from '../sortedSearch.js';
import { type FileTags, fileRoleIndex, type IdentifierTables, nameFlags, tablesOf } from './identifierTables.js';
import { type LexicalTables, lexicalFileCount, lexicalTablesFrom, postingsOf, TERMS_OF } from './lexicalTables.js';

/**
 * The tables after a change to some files, from the tables before it: what the changed and
 * removed files contributed is dropped and the changed files' tags merged in, one pass over each
 * table, so a map after an edit decodes the edited files' records alone. Identifiers, kinds and
 * terms are numbered in sorted order by the build too, so the merge keeps every table as
 * buildIdentifierTables makes it over all the files: equal byte for byte (patchTables.test.ts).
 */

/** Files after a change, against the tables before it. */
export interface TablesChange {
  /** Every file after the change, in path order. */
  paths: readonly string[];
  /** The tags of each file added or changed; every other file of `paths` has the tags the tables hold. */
  changed: readonly FileTags[];
}

/**
 * An Int32Array whose memory is not zero-filled first (tens of megabytes a patch): a merge writes
 * each element it keeps, and keeps the prefix it wrote (a subarray: no copy).
 */
function scratchInt32(length: number): Int32Array {
  return new Int32Array(Buffer.allocUnsafeSlow(4 * length).buffer, 0, length);
}

/** No file: past every real one in a merge by file id; a small integer (2^30 − 1), as a larger one or Infinity is a heap number to V8. */
const PAST = 0x3fffffff;

/**
 * The tables of `change.paths` with `imports` (over their ids); null where a full build is the
 * only way (paths out of order, a new file without tags, or no reference on either side: aider's
 * rule for a repository without references is made over all its definitions).
 */
export function patchIdentifierTables(old: IdentifierTables, change: TablesChange, imports: ImportGraph): IdentifierTables | null {
  const { paths } = change;
  const files = filesAfter(old.paths, change);
  if (!files || imports.importOffsets.length !== paths.length + 1 || onlyDefinitionsReferenced(old)) return null;
  const { keptAs, fresh } = files;

  const idents = mergedNames(old.identNames, keptUses(old, keptAs), freshNamesOf(fresh));
  const kinds = mergedNames(
    old.kindNames,
    keptKindUses(old, keptAs),
    fresh.flatMap(({ tags }) => tags.definitions.map((d) => d.kind ?? '')),
  );
  const identCount = idents.names.length;
  const definers = mergeDefiners(old, keptAs, idents, kinds, freshDefinitions(fresh, idents.freshIds, kinds.freshIds, identCount));
  const references = mergeReferences(old, keptAs, idents, freshReferences(fresh, idents.freshIds, identCount));
  if (references.files.length === 0) return null;
  const identFlags = new Uint8Array(idents.names.length);
  for (let ident = 0; ident < identFlags.length; ident++) {
    const from = idents.oldOf[ident]!;
    identFlags[ident] = from >= 0 ? old.identFlags[from]! : nameFlags(idents.names[ident]!);
  }
  const fileRoles = new Uint8Array(paths.length);
  for (let file = 0; file < keptAs.length; file++) if (keptAs[file]! >= 0) fileRoles[keptAs[file]!] = old.fileRoles[file]!;
  for (const { file, tags } of fresh) fileRoles[file] = fileRoleIndex(tags.path);
  return tablesOf({
    paths: [...paths],
    fileRoles,
    identNames: idents.names,
    identFlags,
    kindNames: kinds.names,
    definerOffsets: definers.offsets,
    definerFiles: definers.files,
    lineOffsets: definers.lineOffsets,
    definitionLines: definers.lines,
    definitionKinds: definers.kinds,
    referenceOffsets: references.offsets,
    referenceFiles: references.files,
    referenceCounts: references.counts,
    importOffsets: imports.importOffsets,
    importTargets: imports.importTargets,
  });
}

/** The lexical tables of `change.paths`, from those of `oldPaths`; null where a build is the only way (as patchIdentifierTables). */
export function patchLexicalTables(old: LexicalTables, oldPaths: readonly string[], change: TablesChange): LexicalTables | null {
  const files = lexicalFileCount(old) === oldPaths.length ? filesAfter(oldPaths, change) : null;
  if (!files) return null;
  const { keptAs, fresh } = files;
  return lexicalTablesFrom((kind) => patchPostings(postingsOf(old, kind), keptAs, fresh, TERMS_OF[kind], change.paths.length));
}

/**
 * Per old file, its id after the change or −1 (gone or changed), and the changed files with their
 * new ids; null when the paths are out of order or a new file has no tags.
 */
function filesAfter(oldPaths: readonly string[], change: TablesChange): { keptAs: Int32Array; fresh: { file: number; tags: FileTags }[] } | null {
  const { paths } = change;
  for (let i = 1; i < paths.length; i++) if (!(paths[i - 1]! < paths[i]!)) return null;
  const changedTags = new Map(change.changed.map((tags) => [tags.path, tags]));
  const keptAs = keptFiles(oldPaths, paths, changedTags);
  if (!keptAs) return null;
  const fresh: { file: number; tags: FileTags }[] = [];
  paths.forEach((path, file) => {
    const tags = changedTags.get(path);
    if (tags) fresh.push({ file, tags });
  });
  return fresh.length === changedTags.size ? { keptAs, fresh } : null;
}

/** Per old file, its id among `paths`, or −1 when it is gone or changed; null when a file of `paths` is new and has no tags. */
function keptFiles(oldPaths: readonly string[], paths: readonly string[], changed: ReadonlyMap<string, FileTags>): Int32Array | null {
  const keptAs = new Int32Array(oldPaths.length).fill(-1);
  let i = 0;
  for (let file = 0; file < paths.length; file++) {
    const path = paths[file]!;
    while (i < oldPaths.length && oldPaths[i]! < path) i++;
    const known = i < oldPaths.length && oldPaths[i] === path;
    if (changed.has(path)) continue;
    if (!known) return null;
    keptAs[i] = file;
  }
  return keptAs;
}

/** Whether the tables' references are their definitions counted once: the build's rule when no file references anything. */
function onlyDefinitionsReferenced(tables: IdentifierTables): boolean {
  const { definerOffsets, definerFiles, referenceOffsets, referenceFiles, referenceCounts } = tables;
  if (referenceFiles.length !== definerFiles.length) return false;
  for (let i = 0; i < referenceOffsets.length; i++) if (referenceOffsets[i] !== definerOffsets[i]) return false;
  for (let i = 0; i < referenceFiles.length; i++) if (referenceFiles[i] !== definerFiles[i] || referenceCounts[i] !== 1) return false;
  return true;
}

/** Per old identifier, how many of its definer and reference slots are in kept files. */
function keptUses(old: IdentifierTables, keptAs: Int32Array): Int32Array {
  const { definerOffsets, definerFiles, referenceOffsets, referenceFiles } = old;
  const uses = new Int32Array(old.identNames.length);
  for (let ident = 0; ident < uses.length; ident++) {
    let count = 0;
    for (let slot = definerOffsets[ident]!; slot < definerOffsets[ident + 1]!; slot++) if (keptAs[definerFiles[slot]!]! >= 0) count++;
    for (let slot = referenceOffsets[ident]!; slot < referenceOffsets[ident + 1]!; slot++) if (keptAs[referenceFiles[slot]!]! >= 0) count++;
    uses[ident] = count;
  }
  return uses;
}

/** Per old kind, how many definitions of kept files have it. */
function keptKindUses(old: IdentifierTables, keptAs: Int32Array): Int32Array {
  const { definerFiles, lineOffsets, definitionKinds } = old;
  const uses = new Int32Array(old.kindNames.length);
  for (let slot = 0; slot < definerFiles.length; slot++) {
    if (keptAs[definerFiles[slot]!]! < 0) continue;
    for (let at = lineOffsets[slot]!; at < lineOffsets[slot + 1]!; at++) uses[definitionKinds[at]!]!++;
  }
  return uses;
}

function freshNamesOf(fresh: readonly { tags: FileTags }[]): string[] {
  const names: string[] = [];
  for (const { tags } of fresh) {
    for (const definition of tags.definitions) names.push(definition.name);
    for (const name of tags.referenceCounts.names) names.push(name);
  }
  return names;
}

/** A sorted name list after a change, against the one before. */
interface MergedNames {
  names: string[];
  /** Per new id, its old id, or −1 for a name only the changed files have. */
  oldOf: Int32Array;
  /** Per old id, its new id, or −1 for a name no file has any more. */
  newOf: Int32Array;
  /** The new id of each name the changed files have. */
  freshIds: Map<string, number>;
}

/** The old names still in use (`uses` per old id) and the changed files' names, in name order. */
function mergedNames(oldNames: readonly string[], uses: Int32Array, freshList: readonly string[]): MergedNames {
  const fresh = [...new Set(freshList)].sort();
  const names: string[] = [];
  const oldOf: number[] = [];
  const newOf = new Int32Array(oldNames.length).fill(-1);
  const freshIds = new Map<string, number>();
  let a = 0;
  let b = 0;
  while (a < oldNames.length || b < fresh.length) {
    const oldName = a < oldNames.length ? oldNames[a]! : null;
    const freshName = b < fresh.length ? fresh[b]! : null;
    if (oldName !== null && (freshName === null || oldName < freshName)) {
      if (uses[a]! > 0) {
        newOf[a] = names.length;
        oldOf.push(a);
        names.push(oldName);
      }
      a++;
    } else {
      const id = names.length;
      freshIds.set(freshName!, id);
      names.push(freshName!);
      if (oldName === freshName) {
        newOf[a++] = id;
        oldOf.push(a - 1);
      } else oldOf.push(-1);
      b++;
    }
  }
  return { names, oldOf: Int32Array.from(oldOf), newOf, freshIds };
}

/** The changed files' definitions as flat arrays, by (identifier, file, line), record order among equals: the build's slot order. */
interface FreshDefinitions {
  idents: Int32Array;
  files: Int32Array;
  lines: Int32Array;
  kinds: Int32Array;
}

function freshDefinitions(
  fresh: readonly { file: number; tags: FileTags }[],
  identIds: ReadonlyMap<string, number>,
  kindIds: ReadonlyMap<string, number>,
  identCount: number,
): FreshDefinitions {
  let total = 0;
  for (const { tags } of fresh) total += tags.definitions.length;
  const pushedIdents = new Int32Array(total);
  const pushedFiles = new Int32Array(total);
  const pushedLines = new Int32Array(total);
  const pushedKinds = new Int32Array(total);
  let at = 0;
  for (const { file, tags } of fresh) {
    for (const d of tags.definitions) {
      pushedIdents[at] = identIds.get(d.name)!;
      pushedFiles[at] = file;
      pushedLines[at] = d.line;
      pushedKinds[at++] = kindIds.get(d.kind ?? '')!;
    }
  }
  // By identifier, then file (as pushed), then line: equal lines stay in record order, as the build's line sort leaves them.
  const order = stableOrderByIdent(pushedIdents, identCount);
  for (let start = 0; start < total; ) {
    let end = start + 1;
    while (end < total && pushedIdents[order[end]!] === pushedIdents[order[start]!] && pushedFiles[order[end]!] === pushedFiles[order[start]!]) end++;
    // A file's definitions of one name: a handful, sorted in place.
    for (let i = start + 1; i < end; i++) {
      const entry = order[i]!;
      let j = i;
      for (; j > start && pushedLines[order[j - 1]!]! > pushedLines[entry]!; j--) order[j] = order[j - 1]!;
      order[j] = entry;
    }
    start = end;
  }
  const pick = (pushed: Int32Array) => order.map((entry) => pushed[entry]!);
  return { idents: pick(pushedIdents), files: pick(pushedFiles), lines: pick(pushedLines), kinds: pick(pushedKinds) };
}

function freshReferences(
  fresh: readonly { file: number; tags: FileTags }[],
  identIds: ReadonlyMap<string, number>,
  identCount: number,
): { idents: Int32Array; files: Int32Array; counts: Int32Array } {
  let total = 0;
  for (const { tags } of fresh) total += tags.referenceCounts.names.length;
  const pushedIdents = new Int32Array(total);
  const pushedFiles = new Int32Array(total);
  const pushedCounts = new Int32Array(total);
  let at = 0;
  for (const { file, tags } of fresh) {
    const { names, counts } = tags.referenceCounts;
    for (let i = 0; i < names.length; i++) {
      pushedIdents[at] = identIds.get(names[i]!)!;
      pushedFiles[at] = file;
      pushedCounts[at++] = counts[i]!;
    }
  }
  // By identifier, then file (as pushed); a name a file lists twice counts once, its counts summed.
  const order = stableOrderByIdent(pushedIdents, identCount);
  const idents = scratchInt32(total);
  const files = scratchInt32(total);
  const counts = scratchInt32(total);
  let out = 0;
  for (let k = 0; k < total; k++) {
    const entry = order[k]!;
    if (out > 0 && idents[out - 1] === pushedIdents[entry] && files[out - 1] === pushedFiles[entry]) {
      counts[out - 1]! += pushedCounts[entry]!;
      continue;
    }
    idents[out] = pushedIdents[entry]!;
    files[out] = pushedFiles[entry]!;
    counts[out++] = pushedCounts[entry]!;
  }
  return { idents: idents.subarray(0, out), files: files.subarray(0, out), counts: counts.subarray(0, out) };
}

/** Entry indices ordered by identifier, equal ones in entry order: a counting sort (objects sorted took seconds a merge of 8,192 files). */
function stableOrderByIdent(idents: Int32Array, identCount: number): Int32Array {
  const starts = new Int32Array(identCount + 1);
  for (let k = 0; k < idents.length; k++) starts[idents[k]! + 1]!++;
  for (let ident = 0; ident < identCount; ident++) starts[ident + 1]! += starts[ident]!;
  const order = new Int32Array(idents.length);
  for (let k = 0; k < idents.length; k++) order[starts[idents[k]!]!++] = k;
  return order;
}

/** Per new identifier, the kept old definer slots (files renumbered) and the fresh ones, by file; each slot's lines with it. */
function mergeDefiners(old: IdentifierTables, keptAs: Int32Array, idents: MergedNames, kinds: MergedNames, fresh: FreshDefinitions) {
  const identCount = idents.names.length;
  const slotBound = old.definerFiles.length + fresh.files.length;
  const lineBound = old.definitionLines.length + fresh.lines.length;
  const offsets = new Int32Array(identCount + 1);
  const files = scratchInt32(slotBound);
  const lineOffsets = scratchInt32(slotBound + 1);
  const lines = scratchInt32(lineBound);
  const lineKinds = scratchInt32(lineBound);
  const { definerOffsets, definerFiles, lineOffsets: oldLineOffsets, definitionLines, definitionKinds } = old;
  const { oldOf } = idents;
  const kindOf = kinds.newOf;
  let slotOut = 0;
  let lineOut = 0;
  let next = 0;
  for (let ident = 0; ident < identCount; ident++) {
    offsets[ident] = slotOut;
    const from = oldOf[ident]!;
    let slot = from >= 0 ? definerOffsets[from]! : 0;
    const end = from >= 0 ? definerOffsets[from + 1]! : 0;
    for (;;) {
      while (slot < end && keptAs[definerFiles[slot]!]! < 0) slot++;
      const oldFile = slot < end ? keptAs[definerFiles[slot]!]! : PAST;
      const freshFile = next < fresh.files.length && fresh.idents[next] === ident ? fresh.files[next]! : PAST;
      if (oldFile === PAST && freshFile === PAST) break;
      lineOffsets[slotOut] = lineOut;
      if (oldFile < freshFile) {
        files[slotOut++] = oldFile;
        for (let at = oldLineOffsets[slot]!; at < oldLineOffsets[slot + 1]!; at++) {
          lines[lineOut] = definitionLines[at]!;
          lineKinds[lineOut++] = kindOf[definitionKinds[at]!]!;
        }
        slot++;
      } else {
        files[slotOut++] = freshFile;
        for (; next < fresh.files.length && fresh.idents[next] === ident && fresh.files[next] === freshFile; next++) {
          lines[lineOut] = fresh.lines[next]!;
          lineKinds[lineOut++] = fresh.kinds[next]!;
        }
      }
    }
  }
  offsets[identCount] = slotOut;
  lineOffsets[slotOut] = lineOut;
  return {
    offsets,
    files: files.subarray(0, slotOut),
    lineOffsets: lineOffsets.subarray(0, slotOut + 1),
    lines: lines.subarray(0, lineOut),
    kinds: lineKinds.subarray(0, lineOut),
  };
}

/** Per new identifier, the kept old reference slots (files renumbered) and the fresh ones, by file. */
function mergeReferences(old: IdentifierTables, keptAs: Int32Array, idents: MergedNames, fresh: { idents: Int32Array; files: Int32Array; counts: Int32Array }) {
  const identCount = idents.names.length;
  const bound = old.referenceFiles.length + fresh.files.length;
  const offsets = new Int32Array(identCount + 1);
  const files = scratchInt32(bound);
  const counts = scratchInt32(bound);
  const { referenceOffsets, referenceFiles, referenceCounts } = old;
  const { oldOf } = idents;
  let out = 0;
  let next = 0;
  for (let ident = 0; ident < identCount; ident++) {
    offsets[ident] = out;
    const from = oldOf[ident]!;
    let slot = from >= 0 ? referenceOffsets[from]! : 0;
    const end = from >= 0 ? referenceOffsets[from + 1]! : 0;
    for (;;) {
      while (slot < end && keptAs[referenceFiles[slot]!]! < 0) slot++;
      const oldFile = slot < end ? keptAs[referenceFiles[slot]!]! : PAST;
      const freshFile = next < fresh.files.length && fresh.idents[next] === ident ? fresh.files[next]! : PAST;
      if (oldFile === PAST && freshFile === PAST) break;
      if (oldFile < freshFile) {
        files[out] = oldFile;
        counts[out++] = referenceCounts[slot++]!;
      } else {
        files[out] = freshFile;
        counts[out++] = fresh.counts[next++]!;
      }
    }
  }
  offsets[identCount] = out;
  return { offsets, files: files.subarray(0, out), counts: counts.subarray(0, out) };
}

/** Postings (as buildPostings makes them) with the kept files' entries renumbered and the fresh files' merged in, term by term. */
function patchPostings(
  old: Postings,
  keptAs: Int32Array,
  fresh: readonly { file: number; tags: FileTags }[],
  termsOf: (tags: FileTags) => TermCounts,
  fileCount: number,
): Postings {
  const { hashes: oldHashes, offsets: oldOffsets, files: oldFiles, counts: oldCounts, fileTotals: oldTotals } = old;
  const fileTotals = new Int32Array(fileCount);
  for (let file = 0; file < keptAs.length; file++) if (keptAs[file]! >= 0) fileTotals[keptAs[file]!] = oldTotals[file]!;
  // The fresh files' entries by hash, then file, as the build's radix sort leaves them: their own
  // postings, spread back out to an entry each (objects sorted took 3 s a merge of 8,192 files).
  const own = buildPostings(fresh.map(({ tags }) => termsOf(tags)));
  const freshTotal = own.files.length;
  const freshHashes = scratchInt32(freshTotal);
  for (let term = 0; term < own.hashes.length; term++) freshHashes.fill(own.hashes[term]!, own.offsets[term]!, own.offsets[term + 1]!);
  const freshFiles = scratchInt32(freshTotal);
  for (let k = 0; k < freshTotal; k++) freshFiles[k] = fresh[own.files[k]!]!.file;
  const freshCounts = own.counts;
  fresh.forEach(({ file }, local) => {
    fileTotals[file] = own.fileTotals[local]!;
  });
  const fewDropped = sameFilesDropped(keptAs, fileCount);
  if (fewDropped) return { ...patchFewFiles(old, fewDropped, freshHashes, freshFiles, freshCounts), fileTotals };
  const bound = oldFiles.length + freshTotal;
  const hashes = scratchInt32(oldHashes.length + freshTotal);
  const offsets = scratchInt32(hashes.length + 1);
  const files = scratchInt32(bound);
  const counts = scratchInt32(bound);
  let termOut = 0;
  let out = 0;
  let term = 0;
  let next = 0;
  while (term < oldHashes.length || next < freshTotal) {
    // Hashes take every int32: which side holds the next one is told by comparing, not by a sentinel.
    const fromOld = term < oldHashes.length && (next === freshTotal || oldHashes[term]! <= freshHashes[next]!);
    const hash = fromOld ? oldHashes[term]! : freshHashes[next]!;
    const start = out;
    let at = fromOld ? oldOffsets[term]! : 0;
    const end = fromOld ? oldOffsets[term + 1]! : 0;
    if (next === freshTotal || freshHashes[next] !== hash) {
      // Most terms: the old entries of kept files, renumbered.
      for (; at < end; at++) {
        const file = keptAs[oldFiles[at]!]!;
        if (file < 0) continue;
        files[out] = file;
        counts[out++] = oldCounts[at]!;
      }
    } else {
      for (;;) {
        while (at < end && keptAs[oldFiles[at]!]! < 0) at++;
        const oldFile = at < end ? keptAs[oldFiles[at]!]! : PAST;
        const freshFile = next < freshTotal && freshHashes[next] === hash ? freshFiles[next]! : PAST;
        if (oldFile === PAST && freshFile === PAST) break;
        if (oldFile < freshFile) {
          files[out] = oldFile;
          counts[out++] = oldCounts[at++]!;
        } else {
          files[out] = freshFile;
          counts[out++] = freshCounts[next++]!;
        }
      }
    }
    if (fromOld) term++;
    if (out > start) {
      hashes[termOut] = hash;
      offsets[termOut++] = start;
    }
  }
  offsets[termOut] = out;
  return {
    hashes: hashes.subarray(0, termOut),
    offsets: offsets.subarray(0, termOut + 1),
    files: files.subarray(0, out),
    counts: counts.subarray(0, out),
    fileTotals,
  };
}

/** At most this many changed files, the file list unchanged, a patch of postings copies the runs between the terms they touch whole. */
const FEW_FILES = 16;

/** The files dropped (changed), ascending, when no file was added or removed and they are few; else null. */
function sameFilesDropped(keptAs: Int32Array, fileCount: number): Int32Array | null {
  if (keptAs.length !== fileCount) return null;
  const dropped: number[] = [];
  for (let file = 0; file < fileCount; file++) {
    if (keptAs[file] === file) continue;
    if (keptAs[file] !== -1 || dropped.length === FEW_FILES) return null;
    dropped.push(file);
  }
  return Int32Array.from(dropped);
}

/**
 * patchPostings when file ids stay and few files changed: only the terms holding a changed file's
 * old entry (found by the native indexOf) or one of its fresh entries are edited, each by
 * copying the pieces of its run between the edits; the runs of terms between them are copied
 * whole, their offsets shifted. The general merge visits every entry (2.8 M text entries at
 * 9,320 files) for the few that change.
 */
function patchFewFiles(
  old: Postings,
  dropped: Int32Array,
  freshHashes: Int32Array,
  freshFiles: Int32Array,
  freshCounts: Int32Array,
): Omit<Postings, 'fileTotals'> {
  const { hashes: oldHashes, offsets: oldOffsets, files: oldFiles, counts: oldCounts } = old;
  // Each touched term by its hash, with its old index (−1 for a term only fresh entries have).
  const touched = new Map<number, number>();
  for (const file of dropped) {
    for (let at = oldFiles.indexOf(file); at >= 0; at = oldFiles.indexOf(file, at + 1)) {
      const term = lowerBound(oldOffsets, at + 1) - 1;
      touched.set(oldHashes[term]!, term);
    }
  }
  for (const hash of freshHashes) if (!touched.has(hash)) touched.set(hash, termIndex(old, hash));
  const events = [...touched.keys()].sort((a, b) => a - b);
  const hashes = scratchInt32(oldHashes.length + events.length);
  const offsets = scratchInt32(hashes.length + 1);
  const files = scratchInt32(oldFiles.length + freshHashes.length);
  const counts = scratchInt32(files.length);
  let termOut = 0;
  let out = 0;
  let copied = 0;
  let next = 0;
  const copyTermsTo = (end: number): void => {
    if (end <= copied) return;
    const from = oldOffsets[copied]!;
    const to = oldOffsets[end]!;
    hashes.set(oldHashes.subarray(copied, end), termOut);
    files.set(oldFiles.subarray(from, to), out);
    counts.set(oldCounts.subarray(from, to), out);
    const shift = out - from;
    let at = termOut;
    for (let term = copied; term < end; term++) offsets[at++] = oldOffsets[term]! + shift;
    termOut = at;
    out += to - from;
    copied = end;
  };
  // The old run of a term copied in pieces between its edits: a common term has thousands of files.
  const copyEntries = (from: number, to: number): void => {
    files.set(oldFiles.subarray(from, to), out);
    counts.set(oldCounts.subarray(from, to), out);
    out += to - from;
  };
  for (const hash of events) {
    const term = touched.get(hash)!;
    copyTermsTo(term >= 0 ? term : lowerBound(oldHashes, hash));
    while (next < freshHashes.length && freshHashes[next]! < hash) next++;
    const start = out;
    const runEnd = term >= 0 ? oldOffsets[term + 1]! : 0;
    let at = term >= 0 ? oldOffsets[term]! : 0;
    let drop = 0;
    for (;;) {
      // The next old entry of a changed file in the run, and where the next fresh entry goes.
      let removal = runEnd;
      while (drop < dropped.length) {
        removal = lowerBound(oldFiles, dropped[drop]!, at, runEnd);
        if (removal < runEnd && oldFiles[removal] === dropped[drop]) break;
        removal = runEnd;
        drop++;
      }
      const inserting = next < freshHashes.length && freshHashes[next] === hash;
      const insertion = inserting ? lowerBound(oldFiles, freshFiles[next]!, at, runEnd) : runEnd;
      if (!inserting && removal === runEnd) break;
      if (inserting && insertion <= removal) {
        copyEntries(at, insertion);
        at = insertion;
        files[out] = freshFiles[next]!;
        counts[out++] = freshCounts[next++]!;
      } else {
        copyEntries(at, removal);
        at = removal + 1;
        drop++;
      }
    }
    copyEntries(at, runEnd);
    if (out > start) {
      hashes[termOut] = hash;
      offsets[termOut++] = start;
    }
    if (term >= 0) copied = term + 1;
  }
  copyTermsTo(oldHashes.length);
  offsets[termOut] = out;
  return { hashes: hashes.subarray(0, termOut), offsets: offsets.subarray(0, termOut + 1), files: files.subarray(0, out), counts: counts.subarray(0, out) };
}
