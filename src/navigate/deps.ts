import type { ImportTargets } from '../derived/importTargetsCodec.js';
import { languageOf } from '../discover/languages.js';
import { FAMILY_OF, type Family } from '../imports/resolvers.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { definerSlots, fileIdOf, importersOf, importsOf, pathOfSlot, referencersOf } from '../rank/tableLookups.js';
import type { RepoView } from './repoView.js';
import { rankOrder } from './viewLines.js';

/**
 * What a file imports (`repomap deps FILE`) and what imports it (`repomap refs FILE`): its
 * resolved imports, transitively to a depth, each link with the import's lines and the names
 * that cross it; and, asked for, the files linked only by names (aider's matching), apart.
 */

export type DepsDirection = 'imports' | 'importers';

export interface DepsRequest {
  /** The file, as a user gives a path. */
  file: string;
  /** `imports`: the files it imports (deps); `importers`: the files importing it (refs). */
  direction: DepsDirection;
  /** How many import steps to follow (default 1). */
  depth?: number;
  /** Whether to list the files linked to it by names alone (default false). */
  nameLinks?: boolean;
}

export interface ImportLine {
  /** 1-based, in the importing file. */
  line: number;
  /** The module as written. */
  module: string;
  /** The names the entry takes (`*` for all); [] for the module itself. */
  names: string[];
}

export interface DepLink {
  path: string;
  /** Import steps from the file: 1 for a direct link. */
  depth: number;
  /** The files it was reached through, the file first: [FILE] at depth 1. */
  via: string[];
  /** The entries of the importing file (the one nearer the file for deps, this one for refs) that name the imported. */
  imports: ImportLine[];
  /** The names that cross the link: those the entries take by name, and those the importer references that the imported defines; sorted. */
  names: string[];
}

export interface NameLink {
  path: string;
  /** The names it shares with the file: that the file references and it defines (deps), or that it references and the file defines (refs); sorted. */
  names: string[];
}

export interface DepsResult {
  /** The file's repository path. */
  file: string;
  direction: DepsDirection;
  depth: number;
  /** By depth, then file rank, then path; each file once, at its least depth. */
  links: DepLink[];
  /** Files of the file's language family linked by names only, not by an import (empty unless asked for): most shared names first, then rank, then path. */
  nameLinks: NameLink[];
}

export const DEPS_DEFAULTS = { depth: 1 } as const;

export async function fileDeps(view: RepoView, request: DepsRequest): Promise<DepsResult> {
  const file = view.repoPath(request.file, 'file');
  const depth = request.depth ?? DEPS_DEFAULTS.depth;
  const tables = await view.tables();
  const start = fileIdOf(tables, file)!;
  const forward = request.direction === 'imports';
  const next = (id: number): Iterable<number> => (forward ? importsOf(tables, id) : importersOf(tables, id));

  // Breadth first: each file at its least depth, reached from the first file of the level before that links it.
  const reached = new Map<number, { depth: number; from: number }>([[start, { depth: 0, from: -1 }]]);
  let level = [start];
  for (let step = 1; step <= depth && level.length > 0; step++) {
    const found: number[] = [];
    for (const id of level) {
      for (const other of next(id)) {
        if (reached.has(other)) continue;
        reached.set(other, { depth: step, from: id });
        found.push(other);
      }
    }
    level = found;
  }

  const targets = await view.importTargets();
  const links: (DepLink & { rank: number; line: number })[] = [];
  for (const [id, { depth: at, from }] of reached) {
    if (id === start) continue;
    const path = tables.paths[id]!;
    const via: string[] = [];
    for (let step = from; step >= 0; step = reached.get(step)!.from) via.unshift(tables.paths[step]!);
    const [importer, imported] = forward ? [from, id] : [id, from];
    const crossing = linkBetween(view, tables, targets, importer, imported);
    links.push({ path, depth: at, via, ...crossing, rank: await view.fileRank(path), line: 0 });
  }
  links.sort((a, b) => a.depth - b.depth || rankOrder(a, b));

  const nameLinks = request.nameLinks ? await nameOnlyLinks(view, tables, start, forward, new Set(reached.keys())) : [];
  return { file, direction: request.direction, depth, links: links.map(({ rank, line, ...link }) => link), nameLinks };
}

/** The entries of `importer` that name `imported`, and the names crossing from one to the other. */
function linkBetween(
  view: RepoView,
  tables: IdentifierTables,
  targets: ImportTargets,
  importer: number,
  imported: number,
): { imports: ImportLine[]; names: string[] } {
  const importerRecord = view.rankPart(tables.paths[importer]!);
  const importedRecord = view.rankPart(tables.paths[imported]!);
  const importedPath = tables.paths[imported]!;
  const imports: ImportLine[] = [];
  const names = new Set<string>();
  const entries = importerRecord?.imports;
  targets.of(importer).forEach((entryTargets, entry) => {
    if (!entries || !entryTargets.includes(importedPath)) return;
    const taken = entries.names[entry] ?? [];
    imports.push({ line: entries.lines[entry] ?? 0, module: entries.modules[entry]!, names: taken });
    for (const name of taken) if (name !== '*') names.add(name);
  });
  const defined = new Set(importedRecord?.definitions.map((definition) => definition.name));
  for (const name of importerRecord?.referenceCounts.names ?? []) if (defined.has(name)) names.add(name);
  imports.sort((a, b) => a.line - b.line);
  return { imports, names: [...names].sort() };
}

/**
 * aider's links that no import makes, one step from the file: for deps the files defining a
 * name the file references, for refs the files referencing a name it defines; only files of the
 * file's language family, and none already reached through imports.
 */
async function nameOnlyLinks(view: RepoView, tables: IdentifierTables, start: number, forward: boolean, reached: ReadonlySet<number>): Promise<NameLink[]> {
  const language = languageOf(tables.paths[start]!);
  const record = view.rankPart(tables.paths[start]!);
  if (!record || !language) return [];
  const family = FAMILY_OF[language];
  const shared = new Map<number, Set<string>>();
  const add = (id: number, name: string) => {
    if (reached.has(id) || !sameFamily(tables.paths[id]!, family)) return;
    let names = shared.get(id);
    if (!names) {
      names = new Set();
      shared.set(id, names);
    }
    names.add(name);
  };
  if (forward) {
    for (const name of record.referenceCounts.names) for (const slot of definerSlots(tables, name)) add(fileIdOf(tables, pathOfSlot(tables, slot))!, name);
  } else {
    for (const name of new Set(record.definitions.map((definition) => definition.name)))
      for (const { fileId } of referencersOf(tables, name)) add(fileId, name);
  }
  const links: (NameLink & { rank: number; line: number })[] = [];
  for (const [id, names] of shared) links.push({ path: tables.paths[id]!, names: [...names].sort(), rank: await view.fileRank(tables.paths[id]!), line: 0 });
  links.sort((a, b) => b.names.length - a.names.length || rankOrder(a, b));
  return links.map(({ path, names }) => ({ path, names }));
}

function sameFamily(path: string, family: Family): boolean {
  const language = languageOf(path);
  return language !== null && FAMILY_OF[language] === family;
}
