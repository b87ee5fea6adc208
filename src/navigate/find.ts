import { closestNames } from '../cli/closestName.js';
import { languageOf } from '../discover/languages.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { definedNames, definerSlots, definitionsOfSlot, fileIdOf, importsOf, pathOfSlot, referencersOf } from '../rank/tableLookups.js';
import type { FileRecord, Language } from '../record/fileRecord.js';
import type { RepoView } from './repoView.js';
import { qualifierMatches, ScopeReader, splitQualifiedName } from './scopeNames.js';
import { cutText, inPrefixes, lineContext, type NumberedLine, rankOrder } from './viewLines.js';

/** Where a name is defined and used (`repomap find NAME`), from the records alone. */

export type FindKind = 'def' | 'ref' | 'all';

export interface FindRequest {
  /** A name, or a qualified one: `Class.method`, `pkg.Func`, `mod::Type`, `a.b.C`. */
  name: string;
  /** Definitions, references or both (the default). */
  kind?: FindKind;
  /** Files or folders (as a user gives paths) the results must lie in; all files when none. */
  in?: readonly string[];
  /** Lines of context around each result (default 0). */
  context?: number;
  /** The most results returned, definitions first (default 200). */
  limit?: number;
}

export interface FindHit {
  path: string;
  /** 1-based. */
  line: number;
  role: 'def' | 'ref';
  /** The definition's kind (class, function, …) or the reference's (call, type, import, …). */
  kind: string;
  /** For a definition, the names enclosing it, outermost first (`['Cart']` for a method of Cart); [] for a reference. */
  scope: string[];
  /** The line as the file has it now, cut to MAX_TEXT characters ('' when the file cannot be read). */
  text: string;
  /** The lines around it (`context` each side), in order, without it. */
  context: NumberedLine[];
}

export interface FindResult {
  /** The name as given. */
  query: string;
  /** The name matched: the query's last part. */
  name: string;
  /** The query's other parts (`['Cart']` for `Cart.add`); [] for a plain name. */
  qualifier: string[];
  definitions: FindHit[];
  references: FindHit[];
  /** How many matched, before the limit. */
  totals: { definitions: number; references: number };
  /** How many the limit left out. */
  omitted: number;
  /** When nothing matched: the defined names closest to the query (qualified forms of the name's definitions when only the qualifier failed). */
  closest: string[];
}

export const FIND_DEFAULTS = { kind: 'all', context: 0, limit: 200 } as const;
/** How many near names a "nothing found" result offers. */
const CLOSEST = 5;

interface Match {
  path: string;
  line: number;
  kind: string;
  /** Known once the definition's file is decoded (always for a qualified query); null until then. */
  scope: string[] | null;
  rank: number;
}

/**
 * The tables say which files define and reference the name, with the definitions' lines and
 * kinds and how often each file references it: only the files whose results are kept are
 * decoded (a whole record costs 0.2–0.3 ms, and a common name has thousands of referencing
 * files), but every file of a qualified query, which the records alone can narrow.
 */
export async function findName(view: RepoView, request: FindRequest): Promise<FindResult> {
  const { qualifier, name } = splitQualifiedName(request.name);
  const kind = request.kind ?? FIND_DEFAULTS.kind;
  const context = request.context ?? FIND_DEFAULTS.context;
  const limit = request.limit ?? FIND_DEFAULTS.limit;
  const prefixes = (request.in ?? []).map((given) => view.repoPrefix(given, '--in'));
  const tables = await view.tables();
  const qualified = qualifier.length > 0;
  const readers = new Map<string, ScopeReader>();
  const readerOf = (path: string) => {
    let reader = readers.get(path);
    if (!reader) {
      reader = new ScopeReader(view, path);
      readers.set(path, reader);
    }
    return reader;
  };

  // A qualified reference query needs the matching definitions' files even when only references are asked for.
  const definitions: Match[] = [];
  if (kind !== 'ref' || qualified) {
    for (const slot of definerSlots(tables, name)) {
      const path = pathOfSlot(tables, slot);
      if (!qualified) {
        if (!inPrefixes(path, prefixes)) continue;
        for (const { line, kind } of definitionsOfSlot(tables, slot)) definitions.push({ path, line, kind, scope: null, rank: 0 });
        continue;
      }
      const scopes = readerOf(path);
      for (const definition of scopes.definitions()) {
        if (definition.name !== name) continue;
        const scope = scopes.enclosing(definition);
        if (qualifierMatches(scopes, scope, qualifier)) definitions.push({ path, line: definition.line, kind: definition.kind, scope, rank: 0 });
      }
    }
  }
  const shownDefinitions = kind === 'ref' ? [] : definitions.filter((match) => inPrefixes(match.path, prefixes));
  for (const match of shownDefinitions) match.rank = await view.fileRank(match.path);
  shownDefinitions.sort(rankOrder);
  const keptDefinitions = shownDefinitions.slice(0, limit);
  for (const match of keptDefinitions) match.scope ??= readerOf(match.path).enclosingAt(name, match.line);

  let keptReferences: Match[] = [];
  let referenceTotal = 0;
  if (kind !== 'def') {
    const room = limit - keptDefinitions.length;
    const files: { path: string; fileId: number; count: number; rank: number; line: number }[] = [];
    for (const { fileId, count } of referencersOf(tables, name)) {
      const path = tables.paths[fileId]!;
      if (inPrefixes(path, prefixes)) files.push({ path, fileId, count, rank: await view.fileRank(path), line: 0 });
    }
    files.sort(rankOrder);
    const qualifies = qualified ? referenceFilter(view, tables, qualifier, name, definitions) : null;
    for (const file of files) {
      // Unqualified, a file's count in the tables is its number of matches: files past the limit need no decoding.
      if (!qualifies && keptReferences.length >= room) {
        referenceTotal += file.count;
        continue;
      }
      const references = view.references(file.path);
      const rankPart = qualifies ? view.rankPart(file.path) : undefined;
      if (!references || (qualifies && !rankPart)) continue;
      const fileQualifies = rankPart ? qualifies!.file({ path: file.path, ...rankPart }, file.fileId) : true;
      const { names, lines, kinds } = references;
      for (let i = 0; i < names.length; i++) {
        if (names[i] !== name) continue;
        // Identifier-fallback references (line −1) have no line to list; unqualified, they count.
        if (lines[i]! < 1) {
          if (!qualifies) referenceTotal++;
          continue;
        }
        if (qualifies && !qualifies.line(file.path, lines[i]!, fileQualifies)) continue;
        referenceTotal++;
        if (keptReferences.length < room) keptReferences.push({ path: file.path, line: lines[i]!, kind: kinds[i]!, scope: [], rank: file.rank });
      }
    }
    keptReferences = keptReferences.slice(0, Math.max(0, room));
  }

  const hit =
    (role: 'def' | 'ref') =>
    (match: Match): FindHit => {
      // A definition's line is in its record: its file need not be read for it (a big file costs its whole read).
      const known = role === 'def' && context === 0 ? readerOf(match.path).storedLine(match.line) : undefined;
      const { text, around } = known === undefined ? lineContext(view, match.path, match.line, context) : { text: cutText(known), around: [] };
      return { path: match.path, line: match.line, role, kind: match.kind, scope: match.scope ?? [], text, context: around };
    };
  const total = shownDefinitions.length + referenceTotal;
  return {
    query: request.name,
    name,
    qualifier,
    definitions: keptDefinitions.map(hit('def')),
    references: keptReferences.map(hit('ref')),
    totals: { definitions: shownDefinitions.length, references: referenceTotal },
    omitted: total - keptDefinitions.length - keptReferences.length,
    closest: total > 0 ? [] : closestTo(view, tables, request.name, qualifier, name),
  };
}

/** Receivers that stand for the enclosing type or module, whatever it is called. */
const SELF_NAMES = new Set(['self', 'this', 'Self', 'super', 'crate', 'cls']);

/**
 * Which references to `name` a qualified query keeps. A reference whose line writes the name
 * after the qualifier's last part (`Cart.add`, `Cart::add`, `Cart->add`) is kept wherever it is.
 * In a file that defines or imports the qualifier's last part (an import entry taking it by name,
 * or whose module ends in it), whose resolved imports name a file holding a matching
 * definition, or (Go, Java) in the package of one, so is every other, except one the line qualifies only by another type (a
 * capitalized name, or any `::` path: `HashMap::new` is no `Cart::new`).
 */
function referenceFilter(view: RepoView, tables: IdentifierTables, qualifier: readonly string[], name: string, definitions: readonly Match[]) {
  const owner = qualifier.at(-1)!;
  const qualifiedUse = new RegExp(`(?<![\\w$])([\\w$]+)\\s*(\\.|::|->)\\s*${escaped(name)}(?![\\w$])`, 'g');
  const definingFiles = new Set(definitions.map((match) => fileIdOf(tables, match.path)));
  // Go and Java see their own package's names unimported: a package is a folder.
  const definingPackages = new Set(definitions.filter((match) => PACKAGE_LANGUAGES.has(languageOf(match.path))).map((match) => folderOf(match.path)));
  return {
    file(record: Pick<FileRecord, 'path' | 'definitions' | 'imports'>, fileId: number): boolean {
      if (record.definitions.some((definition) => definition.name === owner)) return true;
      if (PACKAGE_LANGUAGES.has(languageOf(record.path)) && definingPackages.has(folderOf(record.path))) return true;
      const { modules, names } = record.imports;
      for (let entry = 0; entry < modules.length; entry++) {
        if (names[entry]!.includes(owner) || lastSegment(modules[entry]!) === owner) return true;
      }
      return importsOf(tables, fileId).some((target) => definingFiles.has(target));
    },
    line(path: string, line: number, fileQualifies: boolean): boolean {
      const text = view.sourceLines(path)?.[line - 1] ?? '';
      let otherType = false;
      for (const [, receiver, separator] of text.matchAll(qualifiedUse)) {
        if (receiver === owner) return true;
        if (!SELF_NAMES.has(receiver!) && (separator === '::' || /^[A-Z]/.test(receiver!))) otherType = true;
      }
      return fileQualifies && !otherType;
    },
  };
}

const PACKAGE_LANGUAGES = new Set<Language | null>(['go', 'java']);

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** `a.b.c`, `a/b/c`, `crate::b::c` → `c`. */
function lastSegment(module: string): string {
  return module.split(/::|[./]/).at(-1) ?? '';
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What a query that matched nothing was probably after: when the name is defined but not under
 * that qualifier, its definitions' qualified forms; otherwise the defined names nearest to it.
 */
function closestTo(view: RepoView, tables: IdentifierTables, query: string, qualifier: readonly string[], name: string): string[] {
  if (qualifier.length > 0) {
    const separator = query.includes('::') ? '::' : '.';
    const qualified = new Set<string>();
    for (const slot of definerSlots(tables, name)) {
      const scopes = new ScopeReader(view, pathOfSlot(tables, slot));
      for (const definition of scopes.definitions()) {
        if (definition.name === name) qualified.add([...scopes.enclosing(definition), name].join(separator));
      }
    }
    if (qualified.size > 0) return [...qualified].sort().slice(0, CLOSEST);
  }
  return closestNames(name, definedNames(tables), CLOSEST);
}
