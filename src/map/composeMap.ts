import type { DerivedTables } from '../derived/derivedTables.js';
import { rememberingCache } from '../derived/rememberedPageRanks.js';
import { type RepoFiles, repoFiles, resolveUserFiles, resolveUserFolder, resolveUserPath } from '../discover/userPaths.js';
import { NoMapError, RepoPathError } from '../errors.js';
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
import { MAP_FORMATS } from '../render/formats.js';
import { filesToRender, type RenderEntry } from '../render/renderMap.js';
import type { StageTimer } from '../stageTimer.js';
import { resolveAnchors } from './anchors.js';
import { cutEntries, EXPLAIN_LISTED, explainFiles, type MapExplanation } from './explainMap.js';
import type { ResolvedMapRequest } from './mapRequest.js';
import { mapSourceOf } from './mapSource.js';
import { type RankedReport, rankedReport } from './rankedReport.js';
import { type ShownFile, shownFiles, shownRenderParts } from './shownMap.js';

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
  /** What the map shows, file by file in ranked order, as plain data (see shownMap.ts). */
  readonly shown: readonly ShownFile[];
  /** The ranking behind the map, for tools (`--format json`); built on first access. */
  readonly ranked: RankedReport;
  /** Why each shown file ranks where it does, and what the budget cut: only when the request asked to explain. */
  readonly explain?: MapExplanation;
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
  const scope = resolveScopes(request.scopes, files, paths);
  const mentionedFiles = resolveUserFiles('mentioned file', request.mentionedFiles, files, request.missingFiles, request.onWarning);
  // The scope's files personalize the ranking as mentioned files do.
  const personalized = scope ? new Set([...mentionedFiles, ...scope]) : mentionedFiles;
  // git runs while the tables are read: a warm map hardly waits for it.
  const history = historyFor(index, request, chatFiles.size > 0);
  const tables = await tags.identifierTables(paths, timer);
  const taskText = request.query ? readTaskText(request.query) : null;
  // The lexical tables are read (or brought up to date) only for a ranking that scores a task's text.
  const lexical = taskText && ranker.ranksForTask ? await tags.lexicalTables(paths, timer) : null;

  timer.begin('rank');
  // A FILE part that names no file of the repository is read as an identifier.
  const anchors = resolveAnchors(request.anchors, tables, (path) => {
    const resolved = resolveUserPath(path, files);
    return 'path' in resolved ? resolved.path : '';
  });
  for (const warning of anchors.warnings) request.onWarning(warning);
  const pageRankCache = rememberingCache(tags);
  const rankOptions = {
    chatFiles,
    mentionedFiles: personalized,
    mentionedIdents: new Set(request.mentionedIdents),
    anchors: anchors.weights,
    pageRank: request.pageRank,
    pageRankCache,
    explain: request.explain,
  };
  let gitHistory: GitHistory | null = null;
  if (history) {
    timer.begin('git history');
    gitHistory = await history;
    timer.begin('rank');
  }
  const task = taskText && lexical ? { text: taskText, lexical } : null;
  const taskOptions = { ...rankOptions, task, tests: request.tests, signals, history: gitHistory, rankingCache: tags } as const;
  const rank = (limit?: number): Ranking => (ranker.ranksForTask ? rankForTask(tables, { ...taskOptions, limit }) : rankDefinitions(tables, rankOptions));
  const budget = effectiveBudget(request, chatFiles.size);
  let ranking = rank(Math.ceil(budget / TOKENS_PER_DEFINITION_AT_LEAST));
  const outside = scope && outsideScope(tables, scope);
  let entryCodes = mapEntryCodes(ranking, tables, anchors.codes, ranker.importantFirst, request.excludeUnranked, outside);
  const completeRanking = (): Ranking => {
    if (!ranking.complete) {
      ranking = rank();
      entryCodes = mapEntryCodes(ranking, tables, anchors.codes, ranker.importantFirst, request.excludeUnranked, outside);
    }
    return ranking;
  };

  timer.begin('pack');
  const format = await MAP_FORMATS[request.format].load();
  const source = mapSourceOf(tables, { renderPart: (path) => tags.renderPart(path), definitions: (path) => tags.definitions(path) });
  const renderOptions = {
    chatFiles,
    maxLineLength: request.maxLineLength,
    style: request.style,
    blockCache: new Map<string, string>(),
  };
  // A block's count, kept: a rendering counts 1 for a leading newline and each of its blocks' lines (see formats.ts).
  const blockTokens = new Map<string, number>();
  const countBlock = (block: string): number | undefined => {
    const known = blockTokens.get(block);
    if (known !== undefined) return known;
    const tokens = tags.countTokens(block);
    if (tokens === undefined) return undefined;
    const lines = block.startsWith('\n') ? tokens - 1 : tokens;
    blockTokens.set(block, lines);
    return lines;
  };
  // Anchors are in every prefix: the search runs over what follows them.
  const render = (count: number): Rendering => renderCodes([...anchors.codes, ...entryCodes.slice(0, count)]);
  const renderCodes = (codes: readonly EntryCode[]): Rendering => {
    const entries: RenderEntry[] = codes.map((code) => entryOf(tables, code));
    const blocks = format.render(filesToRender(entries, renderOptions), source, renderOptions);
    const text = blocks.join('');
    let tokens = text.startsWith('\n') ? 1 : 0;
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
  if (packed.text === '') {
    await tags.saveComputed();
    const need = anchors.codes.length > 0 ? ` (the anchors alone need ${packed.tokens})` : '';
    throw new NoMapError(`no map fits in ${budget} tokens${need}`);
  }
  const totals = { files: paths.length, definitions: index.summary.defs, references: index.summary.refs, tokens: packed.tokens };
  // `shown` is made when first read (a map printed as text never reads it), from what is taken now: the store
  // may be closed by then, and an open repository's next map decodes other records and completes `ranking`.
  const shownCodes = [...anchors.codes, ...entryCodes.slice(0, packed.entries)];
  const shownOptions = { style: renderOptions.style, chatFiles, fileRanks: ranking.fileRanks };
  const shownParts = shownRenderParts(shownCodes, tables, (path) => tags.renderPart(path));
  let shown: ShownFile[] | null = null;
  const shownNow = (): ShownFile[] => (shown ??= shownFiles(shownCodes, tables, { ...shownOptions, renderPart: (path) => shownParts.get(path) }));
  let explain: MapExplanation | undefined;
  if (request.explain) {
    timer.begin('explain');
    if (!ranking.complete && entryCodes.length < packed.entries + EXPLAIN_LISTED) completeRanking();
    const tokensWith = async (code: EntryCode): Promise<number> => {
      const tokens = renderCodes([...shownCodes, code]).tokens;
      if (tokens !== undefined) return tokens;
      await tags.loadTokenizer();
      return renderCodes([...shownCodes, code]).tokens!;
    };
    const files = explainFiles({
      tables,
      ranking,
      shown: shownNow(),
      query: ranker.ranksForTask ? request.query : '',
      task,
      mentionWords: signals.codeWordsOnly ? (taskText?.codeWords ?? []) : (taskText?.words ?? []),
      chatFiles,
      mentionedFiles,
      mentionedIdents: rankOptions.mentionedIdents,
      anchors: anchors.weights,
      isImportant: ranker.importantFirst,
    });
    const next = entryCodes.slice(packed.entries, packed.entries + EXPLAIN_LISTED);
    explain = { files, cut: await cutEntries(tables, next, tokensWith, budget, packed.tokens) };
  }
  timer.begin('save computed');
  await tags.saveComputed();
  timer.end();
  pageRankCache.detach();
  let ranked: RankedReport | null = null;
  return {
    text: packed.text,
    report: { ...totals, entries: anchors.codes.length + packed.entries, budget },
    get shown() {
      return shownNow();
    },
    explain,
    // Made on first access, perhaps after the store closed: completing a cut ranking meets the PageRank this map met, or computes it (a kept ranking met none).
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
  anchorCodes: readonly EntryCode[],
  importantFirst: (path: string) => boolean,
  excludeUnranked: boolean,
  outside: Uint8Array | null,
): EntryCode[] {
  const paths = filePaths(tables);
  // Files the ranked list's bare entries leave out: listed bare already, or unranked when asked.
  const leftOut = ranking.hiddenFiles?.slice() ?? new Uint8Array(paths.length);
  if (outside) for (let fileId = 0; fileId < paths.length; fileId++) leftOut[fileId]! |= outside[fileId]!;
  for (const code of anchorCodes) if (code < 0) leftOut[-1 - code] = 1;
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
  const { definerFiles } = tables;
  appendWithoutBareFiles(codes, outside ? ranking.entryCodes.filter((code) => code < 0 || !outside[definerFiles[code]!]) : ranking.entryCodes, leftOut);
  return codes;
}

/**
 * The repository paths of the files under the scopes a request names (folders or files), or
 * null when it names none or the root (no restriction). One that names nothing of the
 * repository is an error: a map of nothing would read as a map of a quiet folder.
 */
function resolveScopes(scopes: readonly string[], files: RepoFiles, paths: readonly string[]): Set<string> | null {
  const folders: string[] = [];
  for (const given of scopes) {
    const file = resolveUserPath(given, files);
    if ('path' in file) {
      folders.push(file.path);
      continue;
    }
    const folder = resolveUserFolder(given, files, (candidate) => candidate === '' || paths.some((path) => path.startsWith(`${candidate}/`)));
    if (!('path' in folder)) throw new RepoPathError(given, `scope ${folder.problem}`);
    if (folder.path === '') return null;
    folders.push(folder.path);
  }
  if (folders.length === 0) return null;
  return new Set(paths.filter((path) => folders.some((folder) => path === folder || path.startsWith(`${folder}/`))));
}

/** Per file id, 1 for the files a scoped map leaves out: all but the scope's files and the files they import. */
function outsideScope(tables: IdentifierTables, scope: ReadonlySet<string>): Uint8Array {
  const { importOffsets, importTargets } = tables;
  const outside = new Uint8Array(tables.paths.length).fill(1);
  tables.paths.forEach((path, fileId) => {
    if (!scope.has(path)) return;
    outside[fileId] = 0;
    for (let k = importOffsets[fileId]!; k < importOffsets[fileId + 1]!; k++) outside[importTargets[k]!] = 0;
  });
  return outside;
}

/** aider's budget: with no chat files and a known context window, maxTokens × mul within the window. */
function effectiveBudget(request: ResolvedMapRequest, chatFileCount: number): number {
  const { maxTokens, maxContextWindow } = request;
  if (chatFileCount > 0 || maxContextWindow === 0) return maxTokens;
  const target = Math.min(maxTokens * request.mapMulNoFiles, maxContextWindow - CONTEXT_WINDOW_PADDING);
  return target > 0 ? target : maxTokens;
}
