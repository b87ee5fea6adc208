import type { DerivedTables } from '../derived/derivedTables.js';
import { repoFiles, resolveUserFiles, resolveUserPath } from '../discover/userPaths.js';
import { NoMapError } from '../errors.js';
import type { GitHistory } from '../history/gitHistory.js';
import { loadGitHistory } from '../history/loadGitHistory.js';
import type { OpenIndex } from '../indexing/indexRepository.js';
import { readTaskText } from '../lexical/taskText.js';
import { type PackedMap, packMap, type Rendering } from '../pack/packMap.js';
import { appendWithoutBareFiles, bareFileEntry, type EntryCode, entryOf } from '../rank/entryCodes.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { type Ranking, rankDefinitions } from '../rank/rankDefinitions.js';
import { gitSignalsUsed, rankForTask } from '../rank/rankForTask.js';
import { fileIdOf, filePaths } from '../rank/tableLookups.js';
import { type RenderEntry, renderBlocks } from '../render/renderMap.js';
import type { StageTimer } from '../stageTimer.js';
import { resolveAnchors } from './anchors.js';
import type { ResolvedMapRequest } from './mapRequest.js';
import { type RankedReport, rankedReport } from './rankedReport.js';

/**
 * No shown definition costs less: a ranking cut at budget ÷ 2 definitions holds more than any map
 * can show, but for definitions sharing lines (`a, b = 1, 2`), which the packer's fallback covers.
 */
const TOKENS_PER_DEFINITION_AT_LEAST = 2;

/** What aider keeps free of the context window for everything but the map. */
const CONTEXT_WINDOW_PADDING = 4096;

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
  /** What the map shows, in ranked order: each entry's file and definition lines ([] for a file listed bare). */
  readonly shown: readonly RenderEntry[];
  /** The ranking behind the map, for tools (`--format json`); built on first access. */
  readonly ranked: RankedReport;
}

/**
 * The map of an indexed repository: the task ranking (src/rank/rankForTask.ts) or aider's on the
 * identifier tables, and a ranked prefix that fits the budget (see packMap), with the anchors
 * always shown and the repository's important files first (for the task ranking, its README and
 * root manifests only). Only the records a rendering shows are decoded.
 */
export async function composeMap(index: OpenIndex, tags: DerivedTables, request: ResolvedMapRequest, timer: StageTimer): Promise<RepoMap> {
  const { ranker, signals } = request;
  if (index.files.length === 0) throw new NoMapError(`no files to map in ${index.root}`);
  const paths = index.files.map((file) => file.path);
  const files = repoFiles(index.root, request.cwd, paths);
  const chatFiles = resolveUserFiles('chat file', request.chatFiles, files, request.missingFiles, request.onWarning);
  const mentionedFiles = resolveUserFiles('mentioned file', request.mentionedFiles, files, request.missingFiles, request.onWarning);
  // git runs while the tables are read: a warm map hardly waits for it.
  const history = historyFor(index, request, chatFiles.size > 0);
  const tables = await tags.identifierTables(paths, timer);

  timer.begin('rank');
  // A FILE part that names no file of the repository is read as an identifier.
  const anchors = resolveAnchors(request.anchors, tables, (path) => {
    const resolved = resolveUserPath(path, files);
    return 'path' in resolved ? resolved.path : '';
  });
  for (const warning of anchors.warnings) request.onWarning(warning);
  const rankOptions = {
    chatFiles,
    mentionedFiles,
    mentionedIdents: new Set(request.mentionedIdents),
    anchors: anchors.weights,
    pageRank: request.pageRank,
    pageRankCache: tags,
  };
  let gitHistory: GitHistory | null = null;
  if (history) {
    timer.begin('git history');
    gitHistory = await history;
    timer.begin('rank');
  }
  const task = request.query ? readTaskText(request.query) : null;
  const taskOptions = { ...rankOptions, task, tests: request.tests, signals, history: gitHistory } as const;
  const rank = (limit?: number): Ranking => (ranker.ranksForTask ? rankForTask(tables, { ...taskOptions, limit }) : rankDefinitions(tables, rankOptions));
  const budget = effectiveBudget(request, chatFiles.size);
  let ranking = rank(Math.ceil(budget / TOKENS_PER_DEFINITION_AT_LEAST));
  let entryCodes = mapEntryCodes(ranking, tables, anchors.entries, ranker.importantFirst, request.excludeUnranked);
  const completeRanking = (): Ranking => {
    if (!ranking.complete) {
      ranking = rank();
      entryCodes = mapEntryCodes(ranking, tables, anchors.entries, ranker.importantFirst, request.excludeUnranked);
    }
    return ranking;
  };

  timer.begin('pack');
  const renderOptions = {
    chatFiles,
    maxLineLength: request.maxLineLength,
    style: request.style,
    blockCache: new Map<string, string>(),
  };
  // A block's count, kept: a rendering's count is 1 (its leading newline) and each block's lines' (see tokenCount.ts).
  const blockTokens = new Map<string, number>();
  const countBlock = (block: string): number | undefined => {
    const known = blockTokens.get(block);
    if (known !== undefined) return known;
    const tokens = tags.countTokens(block);
    if (tokens === undefined) return undefined;
    blockTokens.set(block, tokens - 1);
    return tokens - 1;
  };
  // Anchors are in every prefix: the search runs over what follows them.
  const render = (count: number): Rendering => {
    const entries: RenderEntry[] = [...anchors.entries];
    for (let i = 0; i < count; i++) entries.push(entryOf(tables, entryCodes[i]!));
    const blocks = renderBlocks(entries, (path) => tags.renderPart(path), renderOptions);
    const text = blocks.join('');
    let tokens = blocks.length > 0 ? 1 : 0;
    for (const block of blocks) {
      const counted = countBlock(block);
      if (counted === undefined) return { text, tokens: undefined };
      tokens += counted;
    }
    return { text, tokens };
  };
  const pack = async (): Promise<PackedMap> => {
    const packed = packMap(entryCodes.length, render, budget, ranker.gallop);
    if (!packed.uncounted) return packed;
    // Only a map that shows a line never counted before pays for loading the tokenizer.
    timer.begin('load tokenizer');
    await tags.loadTokenizer();
    timer.begin('pack');
    return packMap(entryCodes.length, render, budget, ranker.gallop);
  };
  let packed = await pack();
  // Every definition of a cut ranking fits: the rest of the ranking may fit too.
  if (!ranking.complete && packed.entries === entryCodes.length) {
    timer.begin('rank');
    completeRanking();
    timer.begin('pack');
    packed = await pack();
  }
  timer.begin('save computed');
  await tags.saveComputed();
  timer.end();
  if (packed.text === '') {
    const need = anchors.entries.length > 0 ? ` (the anchors alone need ${packed.tokens})` : '';
    throw new NoMapError(`no map fits in ${budget} tokens${need}`);
  }
  const totals = { files: paths.length, definitions: index.summary.defs, references: index.summary.refs, tokens: packed.tokens };
  let ranked: RankedReport | null = null;
  let shown: RenderEntry[] | null = null;
  return {
    text: packed.text,
    report: { ...totals, entries: anchors.entries.length + packed.entries, budget },
    get shown() {
      shown ??= [...anchors.entries, ...entryCodes.slice(0, packed.entries).map((code) => entryOf(tables, code))].filter((entry) => !chatFiles.has(entry.path));
      return shown;
    },
    get ranked() {
      ranked ??= rankedReport(completeRanking(), tables, chatFiles, totals);
      return ranked;
    },
  };
}

/** The history the task ranking's git signals read, when they are on and weigh anything (null: a map without them runs no git). */
function historyFor(index: OpenIndex, request: ResolvedMapRequest, hasChatFiles: boolean): Promise<GitHistory | null> | null {
  const used = gitSignalsUsed(request.signals, hasChatFiles);
  if (!request.ranker.readsHistory || !(used.recency || used.coChange)) return null;
  if (request.historySource) return loadGitHistory(index.store, request.historySource);
  // Outside a work tree (discovery found no git) there is no history to ask git for.
  return index.source === 'git' ? loadGitHistory(index.store, { root: index.root }) : null;
}

/**
 * The list the packer takes prefixes of, after the anchors, coded as the ranking codes it: the
 * repository's important files, then the ranked definitions and files (without files already
 * listed bare).
 */
function mapEntryCodes(
  ranking: Ranking,
  tables: IdentifierTables,
  anchorEntries: readonly RenderEntry[],
  importantFirst: (path: string) => boolean,
  excludeUnranked: boolean,
): EntryCode[] {
  const paths = filePaths(tables);
  // Files the ranked list's bare entries leave out: listed bare already, or unranked when asked.
  const leftOut = ranking.hiddenFiles?.slice() ?? new Uint8Array(paths.length);
  for (const entry of anchorEntries) if (entry.lines.length === 0) leftOut[fileIdOf(tables, entry.path)!] = 1;
  const codes: EntryCode[] = [];
  paths.forEach((path, fileId) => {
    if (leftOut[fileId] || !importantFirst(path)) return;
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
function effectiveBudget(request: ResolvedMapRequest, chatFileCount: number): number {
  const { maxTokens, maxContextWindow } = request;
  if (chatFileCount > 0 || maxContextWindow === 0) return maxTokens;
  const target = Math.min(maxTokens * request.mapMulNoFiles, maxContextWindow - CONTEXT_WINDOW_PADDING);
  return target > 0 ? target : maxTokens;
}
