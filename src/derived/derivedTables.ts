import { configuresImports, languageOf } from '../discover/languages.js';
import type { ImportGraph, ImportingFile } from '../imports/importGraph.js';
import { importingFileOf } from '../imports/importingFile.js';
import { type ResolvedImports, resolveImports } from '../imports/resolveImports.js';
import { type CountTokens, loadCl100k, RenderedTokenCounter } from '../pack/tokenCount.js';
import { buildIdentifierTables, type FileTags, type IdentifierTables } from '../rank/identifierTables.js';
import { buildLexicalTables, type LexicalTables, lexicalFileCount } from '../rank/lexicalTables.js';
import { DEFAULT_PAGERANK, type PageRankResult } from '../rank/pageRank.js';
import type { PageRankCache, UnpersonalizedGraph } from '../rank/pageRankCache.js';
import { patchIdentifierTables, patchLexicalTables } from '../rank/patchTables.js';
import { ALL_SIGNALS, rankForTask } from '../rank/rankForTask.js';
import { type KeptRanking, RANKINGS_PREFIX, type RankingCache } from '../rank/rankingCache.js';
import { fileIdOf, filePaths } from '../rank/tableLookups.js';
import { identifierTablesInChunks, lexicalTablesInChunks } from '../rank/tablesInChunks.js';
import type { Definition, RankPart, RenderPart } from '../record/fileRecord.js';
import { decodeRankPart, encodeStamps } from '../record/recordCodec.js';
import { StampTable } from '../record/stampTable.js';
import type { StageTimer } from '../stageTimer.js';
import { type DerivedKey, type TagStore, TREE_KEY_PREFIX } from '../store/tagStore.js';
import { decodeImportTargets, encodeImportTargets, type ImportTargets, resolvedImportTargets } from './importTargetsCodec.js';
import { decodePageRanks, encodePageRanks, PAGE_RANKS_PREFIX, pageRankKey } from './pageRanksCodec.js';
import { decodeKeptRanking, encodeKeptRanking } from './rankingsCodec.js';
import {
  changedPaths,
  decodeTableInputs,
  encodeTableInputs,
  importingJson,
  importingOf,
  stampsOf,
  type TableInputs,
  TableInputsBuilder,
} from './tableInputs.js';
import { decodeIdentifierTables, decodeLexicalTables, encodeIdentifierTables, encodeLexicalTables } from './tablesCodec.js';

const NO_REFERENCES = { names: [], counts: [] };
/**
 * Files a chunk of a build holds (see TablesInChunks): at 93,200 files, 11 merges; a tree of
 * fewer files is built in one.
 */
const CHUNK_FILES = 8192;
/** The tables are read into memory of their own: decoded in place, not copied again. */
const OWNED = { owned: true };

/** Where the tables are kept: exported for tools that compare stores (bench/patchCheck.ts). */
export const TABLES_KEY = 'identifier-tables';
/** What the tables were built from (tableInputs.ts): this tree's stamps, so it stays with the tree. */
const TABLE_INPUTS_KEY = `${TREE_KEY_PREFIX}table-inputs`;
/**
 * The lexical tables (lexicalTables.ts), and the stamps of the records they were made from (as
 * encodeStamps writes them, in path order). Only a ranking with a task reads them: a change
 * patches them when such a ranking next asks, not in every map after it.
 */
export const LEXICAL_KEY = 'lexical-tables';
const LEXICAL_INPUTS_KEY = `${TREE_KEY_PREFIX}lexical-inputs`;
/** Import entries resolved to files: through re-export hubs (what ranking links), and as written (what `at` follows name by name). */
const IMPORT_TARGETS_KEYS = { followed: 'import-targets', written: 'written-import-targets' } as const;
export type ImportTargetsKind = keyof typeof IMPORT_TARGETS_KEYS;
/**
 * Each file's rank with no task, which the navigation commands order results by: the CRC-32 of
 * the paths ranked (NUL-separated; 8 bytes, for the Float64s' alignment), then a Float64 per
 * file. Bound to its paths, so that a command reads it without decoding the tables.
 */
const FILE_RANKS_KEY = 'file-ranks';
const PATHS_CRC_BYTES = 8;
/** What is computed on the tables, and dropped with them. */
const onTables = (key: string): boolean => key.startsWith(PAGE_RANKS_PREFIX) || key.startsWith(RANKINGS_PREFIX) || key === FILE_RANKS_KEY;
/** Kept rankings on one set of tables: a ninth request's drops the others (each is 12 bytes a file: 1.1 MB at 93,200 files). */
const RANKINGS_KEPT = 8;

/**
 * The derived stage: what maps and the navigation commands read that is derived from every
 * record, built once after a change, stored beside the records and decoded once while the
 * store's generation holds. The identifier tables (src/rank/identifierTables.ts), the imports
 * resolved to files (built with them), unpersonalized PageRank results on those tables, and,
 * read through it, the render parts of the records a rendering shows and the token counts of
 * rendered lines. Its rule, not the store's: results computed on other tables are dropped.
 */
export class DerivedTables implements PageRankCache, RankingCache {
  private generation = -1;
  private tables: IdentifierTables | null = null;
  /** The lexical tables of `paths`, once asked for at this generation. */
  private lexical: { paths: readonly string[]; tables: LexicalTables } | null = null;
  private importTargetsOfTables: Record<ImportTargetsKind, ImportTargets | null> = { followed: null, written: null };
  /** The stored import targets a patch kept (the imports stood), decoded when asked for: a default map never reads them. */
  private keptImportTargets: Record<ImportTargetsKind, Uint8Array> | null = null;
  /** Whether `tables` are those stored, which the stored PageRank results were computed on. */
  private tablesStored = false;
  /** What this process derived at this generation (tables, PageRank results) and has not saved yet. */
  private readonly freshDerived = new Map<DerivedKey, Uint8Array>();
  /**
   * PageRank results (and file ranks) met at this generation, computed or read, kept here as well: a ranking made
   * again (a map's ranking completed for its JSON) reads them from here, even once the store is closed.
   */
  private readonly pageRanksMet = new Map<DerivedKey, Uint8Array>();
  private readonly renderParts = new Map<string, RenderPart | undefined>();
  private readonly definitionLists = new Map<string, readonly Definition[]>();
  private readonly counter = new RenderedTokenCounter((line) => this.lineCount(line));
  private readonly freshCounts = new Map<string, number>();
  /** Loaded only once a line needs counting (see loadTokenizer). */
  private tokenizer: CountTokens | null = null;
  /** The last tables, read ahead of a patch (see readAhead) for the next identifierTables call; undefined when not read. */
  private lastTables: LastTables | null | undefined;

  constructor(
    private readonly store: TagStore,
    private readonly root: string,
  ) {}

  /**
   * Reads the last tables saved now, for the next build to patch: called while the parse workers
   * work, whose output it waits for anyway (90 ms at 9,320 files). Not when most files change,
   * since then the tables are built whole (see patchedTables).
   */
  readAhead(changing: number, files: number): void {
    this.lastTables = changing > files / 2 ? undefined : readLastTables(this.store);
  }

  /** The tables of `paths` (the files just indexed, in path order). */
  async identifierTables(paths: readonly string[], timer: StageTimer): Promise<IdentifierTables> {
    this.sync();
    // What was read ahead serves this call alone: it was read for the parse just before.
    const ahead = this.lastTables;
    this.lastTables = undefined;
    if (this.tables && samePaths(filePaths(this.tables), paths)) return this.tables;
    // Read ahead, the last tables are older than the records committed since: they are patched, not read again (43 MB at 9,320 files).
    if (ahead === undefined) {
      timer.begin('read tables');
      const stored = this.store.derivedValue(TABLES_KEY, OWNED);
      const decoded = stored ? decodeIdentifierTables(stored, OWNED) : null;
      if (decoded && samePaths(filePaths(decoded), paths)) {
        this.tables = decoded;
        this.tablesStored = true;
        this.importTargetsOfTables = { followed: null, written: null };
        this.keptImportTargets = null;
        return decoded;
      }
    }
    return this.buildTables(paths, timer, ahead);
  }

  /**
   * The lexical tables of `paths` (as identifierTables takes them): those saved at this generation
   * for these paths, else the last ones saved patched with the records changed since, else built
   * from every record.
   */
  async lexicalTables(paths: readonly string[], timer: StageTimer): Promise<LexicalTables> {
    this.sync();
    if (this.lexical && samePaths(this.lexical.paths, paths)) return this.lexical.tables;
    timer.begin('read lexical tables');
    const crc = pathsCrc(paths);
    const stored = this.store.derivedValue(LEXICAL_KEY, OWNED);
    const decoded = stored && decodeLexicalTables(stored, OWNED);
    let tables: LexicalTables | null = decoded && decoded.pathsCrc === crc && lexicalFileCount(decoded) === paths.length ? decoded : null;
    if (!tables) {
      const stamps = this.store.stamps();
      tables = this.patchedLexicalTables(paths, stamps, timer) ?? this.builtLexicalTables(paths, timer);
      this.keepLexical(paths, tables, stamps);
    }
    this.lexical = { paths, tables };
    return tables;
  }

  /** The last lexical tables saved, patched with the records changed since; null when there are none or half the files changed. */
  private patchedLexicalTables(paths: readonly string[], stamps: StampTable, timer: StageTimer): LexicalTables | null {
    const last = this.store.lastDerivedValue(LEXICAL_KEY, OWNED);
    const old = last && decodeLexicalTables(last.value, OWNED);
    const inputs = lastDerivedAt(this.store, LEXICAL_INPUTS_KEY, last?.generation);
    const oldStamps = inputs && StampTable.decode(inputs);
    if (!old || !oldStamps) return null;
    const oldPaths = oldStamps.keys();
    if (old.pathsCrc !== pathsCrc(oldPaths)) return null;
    const changed = changedPaths(paths, oldStamps, stamps);
    if (changed.length > paths.length / 2) return null;
    timer.begin('patch lexical tables');
    return patchLexicalTables(old, oldPaths, { paths, changed: changed.map((path) => fileTagsOf(path, this.store.rankPart(path))) });
  }

  private builtLexicalTables(paths: readonly string[], timer: StageTimer): LexicalTables {
    timer.begin('build lexical tables');
    const chunks = lexicalTablesInChunks(CHUNK_FILES);
    let inChunks = true;
    for (const path of paths) inChunks &&= chunks.add(fileTagsOf(path, this.store.rankPart(path)));
    return (inChunks && chunks.finish(null)) || buildLexicalTables(this.fileTags(paths));
  }

  /** Keeps the lexical tables made now, to be saved with the stamps of the records they were made from. */
  private keepLexical(paths: readonly string[], tables: LexicalTables, stamps: StampTable): void {
    this.lexical = { paths, tables };
    this.freshDerived.set(LEXICAL_KEY, encodeLexicalTables({ ...tables, pathsCrc: pathsCrc(paths) }));
    this.freshDerived.set(LEXICAL_INPUTS_KEY, encodeStamps(stampsOf(paths, stamps)));
  }

  /** Per file of `paths` (as identifierTables takes them), per entry of its imports, the files it names. */
  async importTargets(paths: readonly string[], timer: StageTimer, kind: ImportTargetsKind = 'followed'): Promise<ImportTargets> {
    await this.identifierTables(paths, timer);
    if (!this.importTargetsOfTables[kind]) {
      const stored = this.keptImportTargets?.[kind] ?? this.store.derivedValue(IMPORT_TARGETS_KEYS[kind]);
      this.importTargetsOfTables[kind] = (stored && decodeImportTargets(stored, paths)) || null;
    }
    // Targets damaged and dropped: they are built with the tables, so all are built again.
    if (!this.importTargetsOfTables[kind]) await this.buildTables(paths, timer);
    return this.importTargetsOfTables[kind]!;
  }

  /** The tables and import targets made from the records, to be saved by saveComputed: patched from the last ones saved when they are near. */
  private async buildTables(paths: readonly string[], timer: StageTimer, ahead?: LastTables | null): Promise<IdentifierTables> {
    // The stamps, the last tables and the records are read in one turn: one snapshot of the store.
    const stamps = this.store.stamps();
    const made = (await this.patchedTables(paths, stamps, timer, ahead)) ?? (await this.builtTables(paths, timer));
    this.tables = made.tables;
    this.tablesStored = false;
    timer.begin('encode tables');
    this.freshDerived.clear();
    this.pageRanksMet.clear();
    this.freshDerived.set(TABLES_KEY, encodeIdentifierTables(made.tables));
    this.freshDerived.set(TABLE_INPUTS_KEY, encodeTableInputs(made.inputs.inputs(stamps)));
    // A build makes the lexical tables too, from the records it reads anyway; a patch leaves them to lexicalTables.
    if (made.lexical) this.keepLexical(paths, made.lexical, stamps);
    if ('resolved' in made.imports) {
      const { targets, written } = made.imports.resolved;
      this.importTargetsOfTables = { followed: resolvedImportTargets(targets), written: resolvedImportTargets(written) };
      this.keptImportTargets = null;
      this.freshDerived.set(IMPORT_TARGETS_KEYS.followed, encodeImportTargets(targets, paths));
      this.freshDerived.set(IMPORT_TARGETS_KEYS.written, encodeImportTargets(written, paths));
    } else {
      this.importTargetsOfTables = { followed: null, written: null };
      this.keptImportTargets = made.imports.stored;
      this.freshDerived.set(IMPORT_TARGETS_KEYS.followed, made.imports.stored.followed);
      this.freshDerived.set(IMPORT_TARGETS_KEYS.written, made.imports.stored.written);
    }
    return made.tables;
  }

  /** The tables built from every record, a chunk of records at a time (see TablesInChunks); whole when chunks cannot make them. */
  private async builtTables(paths: readonly string[], timer: StageTimer): Promise<MadeTables> {
    timer.begin('build tables');
    const chunks = identifierTablesInChunks(CHUNK_FILES);
    const lexicalChunks = lexicalTablesInChunks(CHUNK_FILES);
    const importing: ImportingFile[] = [];
    const inputs = new TableInputsBuilder(paths);
    let inChunks = true;
    for (const path of paths) {
      const record = this.store.rankPart(path);
      const tags = fileTagsOf(path, record);
      inChunks &&= chunks.add(tags) && lexicalChunks.add(tags);
      importing.push(importingFileOf(path, languageOf(path), record));
      inputs.add(importingJson(importing[importing.length - 1]!));
    }
    timer.begin('resolve imports');
    const resolved = await resolveImports(this.root, importing);
    timer.begin('build tables');
    const made = inChunks ? { tables: chunks.finish(resolved.graph), lexical: lexicalChunks.finish(null) } : null;
    if (made?.tables && made.lexical) return { tables: made.tables, lexical: made.lexical, inputs, imports: { resolved } };
    const files = this.fileTags(paths);
    return { tables: buildIdentifierTables(files, resolved.graph), lexical: buildLexicalTables(files), inputs, imports: { resolved } };
  }

  /** Every file's tags, read again: for a build the chunks could not make. */
  private fileTags(paths: readonly string[]): FileTags[] {
    return paths.map((path) => fileTagsOf(path, this.store.rankPart(path)));
  }

  /**
   * The last tables saved, patched with the records that changed since (see patchTables.ts), and
   * their imports kept when the files are the same and none that changed changed what import
   * resolution reads; null when there are none to patch or a build is as quick (half the files changed).
   */
  private async patchedTables(
    paths: readonly string[],
    stamps: StampTable,
    timer: StageTimer,
    ahead: LastTables | null | undefined,
  ): Promise<MadeTables | null> {
    let last = ahead;
    if (last === undefined) {
      timer.begin('read last tables');
      last = readLastTables(this.store);
    }
    if (!last) return null;
    const { old, inputs, followed, written } = last;
    const oldIds = new Map(old.paths.map((path, id) => [path, id]));
    const changed = changedPaths(paths, inputs.stamps, stamps);
    if (changed.length > paths.length / 2) return null;
    const changedTags: FileTags[] = [];
    const madeInputs = new TableInputsBuilder(paths);
    let importsStand = samePaths(paths, old.paths);
    let at = 0;
    for (const path of paths) {
      const oldId = oldIds.get(path);
      if (changed[at] !== path) {
        madeInputs.add(importingOf(inputs, oldId!));
        continue;
      }
      at++;
      const record = this.store.rankPart(path);
      changedTags.push(fileTagsOf(path, record));
      const importing = importingJson(importingFileOf(path, languageOf(path), record));
      madeInputs.add(importing);
      const importingKept = oldId !== undefined && importing.equals(importingOf(inputs, oldId));
      if (!importingKept || configuresImports(path)) importsStand = false;
    }
    let imports: MadeTables['imports'];
    let graph: ImportGraph;
    if (importsStand) {
      imports = { stored: { followed, written } };
      graph = { importOffsets: old.importOffsets, importTargets: old.importTargets };
    } else {
      timer.begin('resolve imports');
      let importing: ImportingFile[];
      try {
        importing = madeInputs.importingFiles();
      } catch {
        return null;
      }
      const resolved = await resolveImports(this.root, importing);
      imports = { resolved };
      graph = resolved.graph;
    }
    timer.begin('patch tables');
    const tables = patchIdentifierTables(old, { paths, changed: changedTags }, graph);
    return tables && { tables, inputs: madeInputs, imports };
  }

  /**
   * Each file's rank in the map's ranking with no task (PageRank over the file graph, no git
   * history), by file id, 0 outside it: what the navigation commands order results by.
   */
  noTaskFileRanks(): Float64Array {
    return this.fileRanks((tables) => {
      const ranking = rankForTask(tables, {
        chatFiles: new Set(),
        mentionedFiles: new Set(),
        mentionedIdents: new Set(),
        anchors: new Map(),
        pageRank: DEFAULT_PAGERANK,
        pageRankCache: this,
        task: null,
        tests: 'demote',
        signals: ALL_SIGNALS,
        history: null,
        // File ranks need no definition's order: ordering all of 10,000 files' took 0.4 s.
        limit: 1,
      });
      const ranks = new Float64Array(tables.paths.length);
      for (const { path, rank } of ranking.fileRanks) ranks[fileIdOf(tables, path)!] = rank;
      return ranks;
    });
  }

  /** Each file's rank (by file id) as `rank` gives it on the current tables, kept beside them. */
  private fileRanks(rank: (tables: IdentifierTables) => Float64Array): Float64Array {
    if (!this.tables) throw new Error('file ranks asked for before the tables');
    const paths = filePaths(this.tables);
    const stored = this.storedFileRanks(paths);
    if (stored) return stored;
    const ranks = rank(this.tables);
    const bytes = new Uint8Array(PATHS_CRC_BYTES + ranks.byteLength);
    new DataView(bytes.buffer).setUint32(0, pathsCrc(paths), true);
    bytes.set(new Uint8Array(ranks.buffer, ranks.byteOffset, ranks.byteLength), PATHS_CRC_BYTES);
    this.freshDerived.set(FILE_RANKS_KEY, bytes);
    this.pageRanksMet.set(FILE_RANKS_KEY, bytes);
    return ranks;
  }

  /** Each file's rank, by its place in `paths`, as kept at this generation for exactly these paths: read without the tables. */
  storedFileRanks(paths: readonly string[]): Float64Array | undefined {
    this.sync();
    // Copied (see get).
    const met = this.pageRanksMet.get(FILE_RANKS_KEY) ?? copyOf(this.store.derivedValue(FILE_RANKS_KEY));
    if (!met || met.length !== PATHS_CRC_BYTES + 8 * paths.length) return undefined;
    if (new DataView(met.buffer, met.byteOffset).getUint32(0, true) !== pathsCrc(paths)) return undefined;
    this.pageRanksMet.set(FILE_RANKS_KEY, met);
    return new Float64Array(met.buffer.slice(met.byteOffset + PATHS_CRC_BYTES, met.byteOffset + met.length));
  }

  /** The kept PageRank of `graph` on the current tables, if any. */
  get(graph: UnpersonalizedGraph): PageRankResult | undefined {
    const bytes = this.computedOnTables(pageRankKey(graph));
    return (bytes && this.tables && decodePageRanks(bytes, graph, this.tables.paths.length)) ?? undefined;
  }

  set(graph: UnpersonalizedGraph, result: PageRankResult): void {
    this.keepOnTables(pageRankKey(graph), encodePageRanks(graph, result));
  }

  /** The ranking kept under `key` on the current tables, if any. */
  keptRanking(key: string): KeptRanking | undefined {
    const bytes = this.computedOnTables(key);
    return (bytes && this.tables && decodeKeptRanking(bytes, this.tables.paths.length, this.tables.definerFiles.length)) ?? undefined;
  }

  keepRanking(key: string, ranking: KeptRanking): void {
    this.keepOnTables(key, encodeKeptRanking(ranking));
  }

  /** What was computed on the current tables under `key`: met by this process, or stored with those tables. */
  private computedOnTables(key: DerivedKey): Uint8Array | undefined {
    if (!this.tables) return undefined;
    let bytes = this.pageRanksMet.get(key);
    if (!bytes && this.tablesStored) {
      const stored = this.store.derivedValue(key);
      // Copied: a stored value is valid only until the store's next read (a Buffer's slice() would share its memory).
      if (stored) {
        bytes = new Uint8Array(stored);
        this.pageRanksMet.set(key, bytes);
      }
    }
    return bytes;
  }

  /** Keeps what was computed on the current tables under `key`, to save with them. */
  private keepOnTables(key: DerivedKey, bytes: Uint8Array): void {
    if (!this.tables) return;
    this.freshDerived.set(key, bytes);
    this.pageRanksMet.set(key, bytes);
  }

  renderPart(path: string): RenderPart | undefined {
    if (!this.renderParts.has(path)) this.renderParts.set(path, this.store.renderPart(path));
    return this.renderParts.get(path);
  }

  /** A file's definitions, for the formats that show symbols: decoded from its rank part once, only for the files they show. */
  definitions(path: string): readonly Definition[] {
    let definitions = this.definitionLists.get(path);
    if (!definitions) {
      definitions = this.store.rankPart(path)?.definitions ?? [];
      this.definitionLists.set(path, definitions);
    }
    return definitions;
  }

  /** Tokens of a rendering, from its lines' counts; undefined when a line has none stored and the tokenizer is not loaded. */
  countTokens(rendering: string): number | undefined {
    return this.counter.count(rendering);
  }

  /** cl100k_base, to count the lines no count is stored for: it costs about 100 ms to load, so only a map that meets one loads it. */
  async loadTokenizer(): Promise<void> {
    this.tokenizer ??= await loadCl100k();
  }

  /** Exact counts of lines (each with its newline); the tokenizer is loaded only when one has no saved count. */
  async lineTokens(lines: readonly string[]): Promise<number[]> {
    const counts = lines.map((line) => this.lineCount(line));
    if (counts.every((count) => count !== undefined)) return counts as number[];
    await this.loadTokenizer();
    return lines.map((line, i) => counts[i] ?? (this.lineCount(line) as number));
  }

  private lineCount(line: string): number | undefined {
    const stored = this.store.tokenCount(line);
    if (stored !== undefined || !this.tokenizer) return stored;
    const count = this.tokenizer(line);
    this.freshCounts.set(line, count);
    return count;
  }

  /** Stores the tables, PageRank results and token counts this process computed, so the next one need not. */
  async saveComputed(): Promise<void> {
    if (this.freshDerived.size > 0) {
      // PageRank results and file ranks were computed on the tables they were saved with: new tables drop the others.
      const dropped = this.freshDerived.has(TABLES_KEY)
        ? this.store.derivedKeys().filter((key) => onTables(key) && !this.freshDerived.has(key))
        : this.rankingsOverBound();
      await this.store.saveDerivedValues(this.freshDerived, this.generation, dropped);
    }
    this.freshDerived.clear();
    if (this.freshCounts.size === 0) return;
    await this.store.saveTokenCounts(this.freshCounts);
    this.freshCounts.clear();
  }

  /** The stored rankings to drop when this process's new ones would make them more than RANKINGS_KEPT. */
  private rankingsOverBound(): DerivedKey[] {
    const fresh = [...this.freshDerived.keys()].filter((key) => key.startsWith(RANKINGS_PREFIX)).length;
    if (fresh === 0) return [];
    const stored = this.store.derivedKeys().filter((key) => key.startsWith(RANKINGS_PREFIX) && !this.freshDerived.has(key));
    return stored.length + fresh > RANKINGS_KEPT ? stored : [];
  }

  /** A commit since the last look makes what was decoded stale. */
  private sync(): void {
    const generation = this.store.generation();
    if (generation === this.generation) return;
    this.generation = generation;
    this.tables = null;
    this.lexical = null;
    this.freshDerived.clear();
    this.pageRanksMet.clear();
    this.renderParts.clear();
    this.definitionLists.clear();
  }
}

/**
 * What tables imported from an artifact were built from, in this tree's terms, to save beside
 * them (see src/artifact/importIndex.ts): each record's importing JSON as the artifact holds it
 * (records added in path order, as an artifact holds them), and its stamp as this store holds it
 * once the import's records are written (none where the tree's file did not hold it), so that
 * the first change after an import patches the tables instead of building them from every record.
 */
export class ImportedTableInputs {
  private readonly paths: string[] = [];
  private readonly parts: Uint8Array[] = [];
  /** Whether the artifact offers the identifier tables: only their inputs need each record decoded. */
  private readonly importing: boolean;

  /** For an artifact offering the derived values `offered`; null when it offers neither kind of tables. */
  static for(offered: ReadonlySet<DerivedKey>): ImportedTableInputs | null {
    return offered.has(TABLES_KEY) || offered.has(LEXICAL_KEY) ? new ImportedTableInputs(offered.has(TABLES_KEY)) : null;
  }

  private constructor(importing: boolean) {
    this.importing = importing;
  }

  add(path: string, record: Uint8Array): void {
    this.paths.push(path);
    if (this.importing) this.parts.push(importingJson(importingFileOf(path, languageOf(path), decodeRankPart(record))));
  }

  /** The inputs of the tables among `imported`, under their keys. */
  values(stamps: StampTable, imported: ReadonlySet<DerivedKey>): Map<DerivedKey, Uint8Array> {
    const values = new Map<DerivedKey, Uint8Array>();
    if (this.importing && imported.has(TABLES_KEY)) {
      const builder = new TableInputsBuilder(this.paths);
      for (const part of this.parts) builder.add(part);
      values.set(TABLE_INPUTS_KEY, encodeTableInputs(builder.inputs(stamps)));
    }
    if (imported.has(LEXICAL_KEY)) values.set(LEXICAL_INPUTS_KEY, encodeStamps(stampsOf(this.paths, stamps)));
    return values;
  }
}

/** The tables last saved and what was saved beside them, all at one generation: what a patch starts from. */
interface LastTables {
  old: IdentifierTables;
  inputs: TableInputs;
  followed: Uint8Array;
  written: Uint8Array;
}

/** The last tables, decoded, or null when there are none or what was saved beside them is missing, damaged or of another generation. */
function readLastTables(store: TagStore): LastTables | null {
  // Each decoded (so copied) as it is read, in one turn: a read may reuse the last one's buffer.
  const lastTables = store.lastDerivedValue(TABLES_KEY, OWNED);
  const generation = lastTables?.generation;
  const old = lastTables && decodeIdentifierTables(lastTables.value, OWNED);
  const inputsBytes = lastDerivedAt(store, TABLE_INPUTS_KEY, generation);
  const inputs = inputsBytes && decodeTableInputs(inputsBytes);
  const followed = lastDerivedAt(store, IMPORT_TARGETS_KEYS.followed, generation);
  const written = lastDerivedAt(store, IMPORT_TARGETS_KEYS.written, generation);
  if (!old || !inputs || !followed || !written || !samePaths(inputs.stamps.keys(), old.paths)) return null;
  return { old, inputs, followed, written };
}

/** A copy of the value last saved under `key`, when it was saved at `generation`. */
function lastDerivedAt(store: TagStore, key: DerivedKey, generation: number | undefined): Uint8Array | null {
  const last = store.lastDerivedValue(key);
  return last && last.generation === generation ? new Uint8Array(last.value) : null;
}

/** Tables made by a build or a patch, with what is saved beside them. */
interface MadeTables {
  tables: IdentifierTables;
  /** Made by a build, with the tables; a patch leaves them (see lexicalTables). */
  lexical?: LexicalTables;
  /** What they were made from (see tableInputs.ts), but the stamps. */
  inputs: TableInputsBuilder;
  /** Imports resolved now, or the stored import targets kept. */
  imports: { resolved: ResolvedImports } | { stored: Record<ImportTargetsKind, Uint8Array> };
}

function fileTagsOf(path: string, record: RankPart | undefined): FileTags {
  return { path, definitions: record?.definitions ?? [], referenceCounts: record?.referenceCounts ?? NO_REFERENCES, terms: record?.terms };
}

function copyOf(value: Uint8Array | undefined): Uint8Array | undefined {
  return value && new Uint8Array(value);
}

function pathsCrc(paths: readonly string[]): number {
  return process.getBuiltinModule('node:zlib').crc32(paths.join('\0'));
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
