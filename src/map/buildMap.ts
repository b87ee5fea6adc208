import { relative, resolve, sep } from 'node:path';
import { DEFAULTS } from '../defaults.js';
import { NoMapError } from '../errors.js';
import { refreshIndex, type IndexOptions } from '../index/indexRepo.js';
import { packMap } from '../pack/packMap.js';
import { loadCl100k, RenderedTokenCounter, type CountTokens } from '../pack/tokenCount.js';
import { isImportantFile } from '../rank/importantFiles.js';
import { DEFAULT_PAGERANK, type PageRankOptions } from '../rank/pageRank.js';
import { rankDefinitions, type FileTags, type Ranking } from '../rank/rankDefinitions.js';
import type { FileRecord } from '../record/fileRecord.js';
import { renderMap, type RenderEntry } from '../render/renderMap.js';
import { StageTimer } from '../stageTimer.js';
import type { TagStore } from '../store/tagStore.js';
import { resolveAnchors } from './anchors.js';
import { rankedReport, type RankedReport } from './rankedReport.js';

const NO_REFERENCES = { names: [], counts: [] };
/** What aider keeps free of the context window for everything but the map. */
const CONTEXT_WINDOW_PADDING = 4096;

export interface MapOptions extends IndexOptions {
  /** The token budget: the map never exceeds it. */
  maxTokens?: number;
  /** Files being edited: they steer the ranking and are left out of the map. */
  chatFiles?: readonly string[];
  mentionedFiles?: readonly string[];
  mentionedIdents?: readonly string[];
  /** `FILE`, `IDENT` or `FILE:IDENT`: weighted ×10 in the ranking and always in the map. */
  anchors?: readonly string[];
  /** Leave out files that received no rank. */
  excludeUnranked?: boolean;
  /** With no chat files, the budget grows to maxTokens × mapMulNoFiles, within this window (aider). */
  maxContextWindow?: number;
  mapMulNoFiles?: number;
  maxLineLength?: number;
  pageRank?: Partial<PageRankOptions>;
  /** Paths the user gives are relative to this folder; default the working directory. */
  cwd?: string;
}

export interface MapReport {
  files: number;
  definitions: number;
  references: number;
  /** Ranked entries the map holds. */
  entries: number;
  tokens: number;
  budget: number;
}

export interface RepoMap {
  text: string;
  report: MapReport;
  /** The ranking behind the map, for tools (`--format json`). */
  ranked: RankedReport;
}

/**
 * The map of a repository: the index brought up to date, every record read from the store (no
 * source file), aider's ranking, and a ranked prefix that fits the budget (see packMap), with
 * the anchors always shown and the repository's important files first.
 */
export async function buildMap(options: MapOptions = {}): Promise<RepoMap> {
  const maxTokens = options.maxTokens ?? DEFAULTS.maxTokens;
  if (maxTokens <= 0) throw new NoMapError(`a budget of ${maxTokens} tokens holds no map`);
  const timer = options.timer ?? new StageTimer();
  const index = await refreshIndex({ ...options, timer });
  try {
    timer.begin('read records');
    if (index.files.length === 0) throw new NoMapError(`no files to map in ${index.root}`);
    const records = new Map<string, FileRecord>();
    const tags: FileTags[] = [];
    for (const file of index.files) {
      const record = index.store.get(file.path);
      if (record) records.set(file.path, record);
      tags.push({ path: file.path, definitions: record?.definitions ?? [], referenceCounts: record?.referenceCounts ?? NO_REFERENCES });
    }

    timer.begin('rank');
    const cwd = options.cwd ?? process.cwd();
    const toRepoPath = (path: string) => relative(index.root, resolve(cwd, path)).split(sep).join('/');
    const inRepo = (paths: readonly string[] | undefined) => new Set((paths ?? []).map(toRepoPath));
    const chatFiles = inRepo(options.chatFiles);
    const mentionedFiles = inRepo(options.mentionedFiles);
    const anchors = resolveAnchors(options.anchors ?? [], tags, toRepoPath);
    anchors.warnings.forEach((warning) => options.onWarning?.(warning));
    const ranking = rankDefinitions(tags, {
      chatFiles,
      mentionedFiles,
      mentionedIdents: new Set(options.mentionedIdents ?? []),
      anchors: anchors.weights,
      pageRank: { ...DEFAULT_PAGERANK, ...options.pageRank },
    });
    const entries = mapEntries(ranking, anchors.entries, index.files.map((file) => file.path), options.excludeUnranked ?? false);
    const known = new Set(index.files.map((file) => file.path));
    for (const [flag, paths] of [['chat file', chatFiles], ['mentioned file', mentionedFiles]] as const) {
      for (const path of paths) if (!known.has(path)) options.onWarning?.(`${flag} ${path} is not a file of the repository; ignored`);
    }
    const budget = effectiveBudget(maxTokens, chatFiles.size, options);

    timer.begin('pack');
    const renderOptions = { chatFiles, maxLineLength: options.maxLineLength ?? DEFAULTS.maxLineLength };
    const lineCounts = new StoredLineCounts(index.store);
    const counter = new RenderedTokenCounter((line) => lineCounts.count(line));
    // Anchors are in every prefix: the search runs over what follows them.
    const render = (count: number) =>
      renderMap([...anchors.entries, ...entries.slice(0, count)], (path) => records.get(path), renderOptions);
    const pack = () => packMap(entries.length, render, (rendering) => counter.count(rendering), budget);
    let packed;
    try {
      packed = pack();
    } catch (error) {
      if (!(error instanceof TokenizerNeeded)) throw error;
      timer.begin('load tokenizer');
      lineCounts.tokenizer = await loadCl100k();
      timer.begin('pack');
      packed = pack();
    }
    timer.begin('save token counts');
    await lineCounts.save();
    timer.end();
    if (packed.text === '') {
      const need = anchors.entries.length > 0 ? ` (the anchors alone need ${counter.count(render(0))})` : '';
      throw new NoMapError(`no map fits in ${budget} tokens${need}`);
    }
    const ranked = rankedReport(ranking, records, chatFiles, packed.tokens);
    return {
      text: packed.text,
      report: { ...ranked.totals, entries: anchors.entries.length + packed.entries, budget },
      ranked,
    };
  } finally {
    await index.store.close();
  }
}

class TokenizerNeeded extends Error {}

/**
 * Line token counts from the store; a line never counted before needs the tokenizer, which a
 * first pass signals by TokenizerNeeded so it is loaded only then. New counts are saved.
 */
class StoredLineCounts {
  tokenizer: CountTokens | null = null;
  private readonly fresh = new Map<string, number>();

  constructor(private readonly store: TagStore) {}

  count(line: string): number {
    const stored = this.store.tokenCount(line);
    if (stored !== undefined) return stored;
    if (!this.tokenizer) throw new TokenizerNeeded();
    const count = this.tokenizer(line);
    this.fresh.set(line, count);
    return count;
  }

  async save(): Promise<void> {
    if (this.fresh.size > 0) await this.store.saveTokenCounts(this.fresh);
  }
}

/**
 * The list the packer takes prefixes of, after the anchors: the repository's important files,
 * then the ranked definitions and files (without files already listed bare).
 */
function mapEntries(ranking: Ranking, anchorEntries: RenderEntry[], allFiles: readonly string[], excludeUnranked: boolean): RenderEntry[] {
  const ranked = new Set(ranking.fileRanks.map(({ path }) => path));
  const bare = new Set(anchorEntries.filter((entry) => entry.lines.length === 0).map((entry) => entry.path));
  const entries: RenderEntry[] = [];
  for (const path of allFiles) {
    if (!isImportantFile(path) || bare.has(path)) continue;
    entries.push({ path, lines: [] });
    bare.add(path);
  }
  for (const entry of ranking.entries) {
    if (entry.name === null && (bare.has(entry.path) || (excludeUnranked && !ranked.has(entry.path)))) continue;
    entries.push({ path: entry.path, lines: entry.lines });
  }
  return entries;
}

/** aider's budget: with no chat files and a known context window, maxTokens × mul within the window. */
function effectiveBudget(maxTokens: number, chatFileCount: number, options: MapOptions): number {
  const window = options.maxContextWindow;
  if (chatFileCount > 0 || !window) return maxTokens;
  const target = Math.min(maxTokens * (options.mapMulNoFiles ?? DEFAULTS.mapMulNoFiles), window - CONTEXT_WINDOW_PADDING);
  return target > 0 ? target : maxTokens;
}
