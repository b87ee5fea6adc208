import { DEFAULTS } from '../defaults.js';
import { openDerivedIndex } from '../derived/derivedIndex.js';
import type { DerivedTables } from '../derived/derivedTables.js';
import type { ImportTargets } from '../derived/importTargetsCodec.js';
import { repoFiles, resolveUserFolder, resolveUserPath } from '../discover/userPaths.js';
import { RepoPathError } from '../errors.js';
import type { OpenIndex } from '../indexing/indexRepository.js';
import { readSourceBytes } from '../indexing/openSource.js';
import type { IndexOptions } from '../options/libraryOptions.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { fileIdOf } from '../rank/tableLookups.js';
import type { Definition, FileRecord, RankPart, References, RenderPart } from '../record/fileRecord.js';
import { sortedIndexOf } from '../sortedSearch.js';
import { StageTimer } from '../stageTimer.js';

/**
 * One indexed repository as the navigation commands read it (find, deps, refs, at, outline):
 * its records, its ranking tables, its resolved imports and its files' ranks, each computed on
 * first use and kept for the view's life. No source file is parsed; `sourceLines` reads one.
 */
export interface RepoView {
  /** The root's real path. */
  readonly root: string;
  /** Every indexed file, relative to the root, in path order (a file id of the tables indexes this). */
  readonly paths: readonly string[];
  /** A file's whole record, decoded from the store once. */
  record(path: string): FileRecord | undefined;
  /** A file's definitions alone, decoded from the part of its record ranking reads (no references, no lines): what an outline needs. */
  definitions(path: string): readonly Definition[] | undefined;
  /** How many definitions a file's record holds, read from its header (nothing decoded); 0 for a file with no record. */
  definitionCount(path: string): number;
  /** What ranking reads of a file's record (definitions, reference counts, imports, package): a third of a whole record's decoding. */
  rankPart(path: string): RankPart | undefined;
  /** What rendering reads of a file's record (its renderable lines, scope and signature lines). */
  renderPart(path: string): RenderPart | undefined;
  /** A file's references alone: a fraction of decoding its whole record. */
  references(path: string): References | undefined;
  tables(): Promise<IdentifierTables>;
  /** Per file (in `paths` order), per entry of its record's imports, the repository files the entry names. */
  importTargets(): Promise<ImportTargets>;
  /**
   * Per file asked for, per entry of its record's imports, the files the entry names as written,
   * no re-export hub seen through (what `at` follows itself, name by name); stored beside the tables.
   */
  writtenImportTargets(paths: readonly string[]): Promise<ReadonlyMap<string, readonly (readonly string[])[]>>;
  /** Each file's rank in the map's ranking with no task (PageRank over the file graph, no git history); 0 outside it. */
  fileRank(path: string): Promise<number>;
  /** A path the user gave (absolute, or relative to the working directory, then to the root) as a repository path; a RepoPathError otherwise. */
  repoPath(given: string, label: string): string;
  /** A file or folder the user gave, by repoPath's rule, as a path prefix: a file's path, a folder's path ('' for the root); a RepoPathError when it holds no indexed file. */
  repoPrefix(given: string, label: string): string;
  /** As repoPath, for a file or folder to look into: whatever exists inside the root, indexed or not ('' for the root itself). */
  repoEntry(given: string, label: string): string;
  /** Exact cl100k counts of lines, each with its newline: counts saved in the store, the tokenizer loaded only for others (saved when the view closes). */
  lineTokens(lines: readonly string[]): Promise<number[]>;
  /** A file's lines as it is on disk now (through the safe opener, bounded as the index bounds files); undefined when it cannot be read. */
  sourceLines(path: string): readonly string[] | undefined;
}

export interface ViewOptions extends IndexOptions {
  /** The folder relative paths are tried against first; default the working directory. */
  cwd?: string;
}

/** The index brought up to date, a view of it handed to `use`, the store closed after. */
export async function withRepoView<T>(options: ViewOptions, use: (view: RepoView) => Promise<T> | T): Promise<T> {
  const timer = options.timer ?? new StageTimer();
  const { index, derived } = await openDerivedIndex({ ...options, timer });
  try {
    const result = await use(viewOf(index, derived, options, timer));
    await derived.saveComputed();
    return result;
  } finally {
    await index.store.close();
  }
}

/** A view of an index already open and brought up to date (a server's, kept open between calls); what it reads it keeps for its own life. */
export function viewOf(index: OpenIndex, derived: DerivedTables, options: ViewOptions, timer: StageTimer): RepoView {
  return new IndexView(index, derived, options, timer);
}

class IndexView implements RepoView {
  readonly root: string;
  readonly paths: readonly string[];
  private readonly files;
  private tablesPromise: Promise<IdentifierTables> | null = null;
  private targetsPromise: Promise<ImportTargets> | null = null;
  private ranksPromise: Promise<Float64Array> | null = null;
  private readonly sources = new Map<string, readonly string[] | undefined>();
  private readonly rankParts = new Map<string, RankPart | undefined>();
  private readonly records = new Map<string, FileRecord | undefined>();

  constructor(
    private readonly index: OpenIndex,
    private readonly tags: DerivedTables,
    private readonly options: ViewOptions,
    private readonly timer: StageTimer,
  ) {
    this.root = index.root;
    this.paths = index.files.map((file) => file.path);
    this.files = repoFiles(index.root, options.cwd ?? process.cwd(), this.paths);
  }

  record(path: string): FileRecord | undefined {
    // Kept: `at` reads the records of the files a resolution visits many times over.
    if (!this.records.has(path)) this.records.set(path, this.index.store.get(path));
    return this.records.get(path);
  }

  definitions(path: string): readonly Definition[] | undefined {
    return this.index.store.definitions(path);
  }

  definitionCount(path: string): number {
    return this.index.store.definitionCount(path) ?? 0;
  }

  rankPart(path: string): RankPart | undefined {
    // Kept: deps and refs read the one file at their centre once per link.
    if (!this.rankParts.has(path)) this.rankParts.set(path, this.index.store.rankPart(path));
    return this.rankParts.get(path);
  }

  renderPart(path: string): RenderPart | undefined {
    return this.index.store.renderPart(path);
  }

  references(path: string): References | undefined {
    return this.index.store.references(path);
  }

  tables(): Promise<IdentifierTables> {
    this.tablesPromise ??= this.tags.identifierTables(this.paths, this.timer);
    return this.tablesPromise;
  }

  importTargets(): Promise<ImportTargets> {
    // After the tables: both are built together when they are built.
    this.targetsPromise ??= this.tables().then(() => this.tags.importTargets(this.paths, this.timer));
    return this.targetsPromise;
  }

  async writtenImportTargets(paths: readonly string[]): Promise<ReadonlyMap<string, readonly (readonly string[])[]>> {
    const tables = await this.tables();
    const written = await this.tags.importTargets(this.paths, this.timer, 'written');
    const found = new Map<string, readonly (readonly string[])[]>();
    for (const path of paths) {
      const fileId = fileIdOf(tables, path);
      if (fileId !== undefined) found.set(path, written.of(fileId));
    }
    return found;
  }

  async fileRank(path: string): Promise<number> {
    this.ranksPromise ??= this.defaultRanks();
    const ranks = await this.ranksPromise;
    // A file's id is its place among the sorted paths: a search, where a map of them cost a server's call 2 ms at 9,320 files.
    const fileId = sortedIndexOf(this.paths, path);
    return fileId < 0 ? 0 : ranks[fileId]!;
  }

  private async defaultRanks(): Promise<Float64Array> {
    // Kept for these paths, the ranks need no tables decoded (outline, deps, refs order by them alone).
    const stored = this.tags.storedFileRanks(this.paths);
    if (stored) return stored;
    await this.tables();
    return this.tags.noTaskFileRanks();
  }

  repoPath(given: string, label: string): string {
    const resolved = resolveUserPath(given, this.files);
    if ('path' in resolved) return resolved.path;
    throw new RepoPathError(given, `${label} ${resolved.problem}`);
  }

  repoPrefix(given: string, label: string): string {
    const file = resolveUserPath(given, this.files);
    if ('path' in file) return file.path;
    const folder = resolveUserFolder(given, this.files, (prefix) => prefix === '' || this.paths.some((path) => path.startsWith(`${prefix}/`)));
    if ('path' in folder) return folder.path;
    throw new RepoPathError(given, `${label} ${folder.problem}`);
  }

  repoEntry(given: string, label: string): string {
    const file = resolveUserPath(given, this.files);
    if ('path' in file) return file.path;
    const found = resolveUserFolder(given, this.files, () => true);
    if ('path' in found) return found.path;
    throw new RepoPathError(given, `${label} ${found.problem}`);
  }

  lineTokens(lines: readonly string[]): Promise<number[]> {
    return this.tags.lineTokens(lines);
  }

  sourceLines(path: string): readonly string[] | undefined {
    if (!this.sources.has(path)) {
      const { bytes } = readSourceBytes(this.root, path, this.options.maxFileBytes ?? DEFAULTS.maxFileBytes);
      this.sources.set(path, bytes?.toString('utf8').split(/\r?\n/));
    }
    return this.sources.get(path);
  }
}
