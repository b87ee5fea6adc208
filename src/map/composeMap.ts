import { relative, resolve, sep } from 'node:path';
import { DEFAULTS } from '../defaults.js';
import { NoMapError } from '../errors.js';
import type { OpenIndex } from '../indexing/indexRepository.js';
import { packMap } from '../pack/packMap.js';
import { appendWithoutBareFiles, bareFileEntry, type EntryCode, entryOf } from '../rank/entryCodes.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { DEFAULT_PAGERANK, type PageRankOptions } from '../rank/pageRank.js';
import { type Ranking, rankDefinitions } from '../rank/rankDefinitions.js';
import { fileIdOf, filePaths } from '../rank/tableLookups.js';
import { type RenderEntry, renderMap } from '../render/renderMap.js';
import type { StageTimer } from '../stageTimer.js';
import { resolveAnchors } from './anchors.js';
import { isImportantFile } from './importantFiles.js';
import { type RankedReport, rankedReport } from './rankedReport.js';
import type { StoredTags } from './storedTags.js';

/** What aider keeps free of the context window for everything but the map. */
const CONTEXT_WINDOW_PADDING = 4096;

/** What one map asks for, beyond the index it is made from. */
export interface MapRequest {
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
  onWarning?: (message: string) => void;
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
  /** The ranking behind the map, for tools (`--format json`); built on first access. */
  readonly ranked: RankedReport;
}

export function assertBudget(maxTokens: number): void {
  if (maxTokens <= 0) throw new NoMapError(`a budget of ${maxTokens} tokens holds no map`);
}

/**
 * The map of an indexed repository: aider's ranking on the identifier tables, and a ranked
 * prefix that fits the budget (see packMap), with the anchors always shown and the repository's
 * important files first. Only the records a rendering shows are decoded.
 */
export async function composeMap(index: OpenIndex, tags: StoredTags, request: MapRequest, timer: StageTimer): Promise<RepoMap> {
  const maxTokens = request.maxTokens ?? DEFAULTS.maxTokens;
  assertBudget(maxTokens);
  if (index.files.length === 0) throw new NoMapError(`no files to map in ${index.root}`);
  const paths = index.files.map((file) => file.path);
  const tables = await tags.identifierTables(paths, timer);

  timer.begin('rank');
  const cwd = request.cwd ?? process.cwd();
  const toRepoPath = (path: string) => relative(index.root, resolve(cwd, path)).split(sep).join('/');
  const inRepo = (given: readonly string[] | undefined) => new Set((given ?? []).map(toRepoPath));
  const chatFiles = inRepo(request.chatFiles);
  const mentionedFiles = inRepo(request.mentionedFiles);
  const anchors = resolveAnchors(request.anchors ?? [], tables, toRepoPath);
  for (const warning of anchors.warnings) request.onWarning?.(warning);
  const ranking = rankDefinitions(tables, {
    chatFiles,
    mentionedFiles,
    mentionedIdents: new Set(request.mentionedIdents ?? []),
    anchors: anchors.weights,
    pageRank: { ...DEFAULT_PAGERANK, ...request.pageRank },
  });
  const entryCodes = mapEntryCodes(ranking, tables, anchors.entries, request.excludeUnranked ?? false);
  const known = new Set(paths);
  for (const [flag, given] of [
    ['chat file', chatFiles],
    ['mentioned file', mentionedFiles],
  ] as const) {
    for (const path of given) if (!known.has(path)) request.onWarning?.(`${flag} ${path} is not a file of the repository; ignored`);
  }
  const budget = effectiveBudget(maxTokens, chatFiles.size, request);

  timer.begin('pack');
  const renderOptions = { chatFiles, maxLineLength: request.maxLineLength ?? DEFAULTS.maxLineLength, blockCache: new Map<string, string>() };
  // Anchors are in every prefix: the search runs over what follows them.
  const render = (count: number) => {
    const entries: RenderEntry[] = [...anchors.entries];
    for (let i = 0; i < count; i++) entries.push(entryOf(tables, entryCodes[i]!));
    return renderMap(entries, (path) => tags.renderPart(path), renderOptions);
  };
  const pack = () => packMap(entryCodes.length, render, (rendering) => tags.countTokens(rendering), budget);
  let packed = pack();
  // Only a map that shows a line never counted before pays for loading the tokenizer.
  if (packed.uncounted) {
    timer.begin('load tokenizer');
    await tags.loadTokenizer();
    timer.begin('pack');
    packed = pack();
  }
  timer.begin('save token counts');
  await tags.saveTokenCounts();
  timer.end();
  if (packed.text === '') {
    const need = anchors.entries.length > 0 ? ` (the anchors alone need ${packed.tokens})` : '';
    throw new NoMapError(`no map fits in ${budget} tokens${need}`);
  }
  const totals = { files: paths.length, definitions: index.summary.defs, references: index.summary.refs, tokens: packed.tokens };
  let ranked: RankedReport | null = null;
  return {
    text: packed.text,
    report: { ...totals, entries: anchors.entries.length + packed.entries, budget },
    get ranked() {
      ranked ??= rankedReport(ranking, tables, chatFiles, totals);
      return ranked;
    },
  };
}

/**
 * The list the packer takes prefixes of, after the anchors, coded as the ranking codes it: the
 * repository's important files, then the ranked definitions and files (without files already
 * listed bare).
 */
function mapEntryCodes(ranking: Ranking, tables: IdentifierTables, anchorEntries: readonly RenderEntry[], excludeUnranked: boolean): EntryCode[] {
  const paths = filePaths(tables);
  // Files the ranked list's bare entries leave out: listed bare already, or unranked when asked.
  const leftOut = new Uint8Array(paths.length);
  for (const entry of anchorEntries) if (entry.lines.length === 0) leftOut[fileIdOf(tables, entry.path)!] = 1;
  const codes: EntryCode[] = [];
  paths.forEach((path, fileId) => {
    if (leftOut[fileId] || !isImportantFile(path)) return;
    codes.push(bareFileEntry(fileId));
    leftOut[fileId] = 1;
  });
  if (excludeUnranked) {
    const ranked = new Uint8Array(paths.length);
    for (const { path } of ranking.fileRanks) ranked[fileIdOf(tables, path)!] = 1;
    ranked.forEach((isRanked, fileId) => {
      if (!isRanked) leftOut[fileId] = 1;
    });
  }
  appendWithoutBareFiles(codes, ranking.entryCodes, leftOut);
  return codes;
}

/** aider's budget: with no chat files and a known context window, maxTokens × mul within the window. */
function effectiveBudget(maxTokens: number, chatFileCount: number, request: MapRequest): number {
  const window = request.maxContextWindow;
  if (chatFileCount > 0 || !window) return maxTokens;
  const target = Math.min(maxTokens * (request.mapMulNoFiles ?? DEFAULTS.mapMulNoFiles), window - CONTEXT_WINDOW_PADDING);
  return target > 0 ? target : maxTokens;
}
