import { DEFAULTS } from '../defaults.js';
import { NoMapError } from '../errors.js';
import { checkMapRequest } from '../options/checkOptions.js';
import type { MapFormatName, MapRequest, MapStyle, MissingFiles, RankingMode } from '../options/libraryOptions.js';
import { DEFAULT_PAGERANK, type PageRankOptions } from '../rank/pageRank.js';
import { ALL_SIGNALS, type TaskSignals, type TestFiles } from '../rank/rankForTask.js';
import { isImportantFile, isPrimaryImportantFile } from './importantFiles.js';

/**
 * A map request checked and completed once, against the defaults: what composeMap reads, with
 * no option left unset and no ranking mode tested by name.
 */

/** What a ranking mode means for a map. */
export interface Ranker {
  readonly name: RankingMode;
  /** The task ranking (src/rank/rankForTask.ts), or aider's (src/rank/rankDefinitions.ts). */
  readonly ranksForTask: boolean;
  /** The files listed before the ranked ones: aider's every important file, or the task's README and root manifests. */
  readonly importantFirst: (path: string) => boolean;
  /** Whether the git signals may read history (the task ranking's, when on and weighing anything). */
  readonly readsHistory: boolean;
  /** Whether the packer gallops before its binary search (see packMap); aider's search does not. */
  readonly gallop: boolean;
}

const RANKERS: Readonly<Record<RankingMode, Omit<Ranker, 'readsHistory'>>> = {
  task: { name: 'task', ranksForTask: true, importantFirst: isPrimaryImportantFile, gallop: true },
  aider: { name: 'aider', ranksForTask: false, importantFirst: isImportantFile, gallop: false },
};

export interface ResolvedMapRequest {
  readonly ranker: Ranker;
  readonly maxTokens: number;
  /** The task's text; '' for none. */
  readonly query: string;
  /** aider's ranking shows tests as code: always `include` there. */
  readonly tests: TestFiles;
  readonly signals: TaskSignals;
  readonly historySource: MapRequest['historySource'];
  readonly chatFiles: readonly string[];
  readonly mentionedFiles: readonly string[];
  readonly mentionedIdents: readonly string[];
  readonly scopes: readonly string[];
  readonly anchors: readonly string[];
  readonly excludeUnranked: boolean;
  /** 0 when none is known: the budget does not grow. */
  readonly maxContextWindow: number;
  readonly mapMulNoFiles: number;
  readonly maxLineLength: number;
  readonly style: MapStyle;
  /** Also explain the map (RepoMap.explain). */
  readonly explain: boolean;
  readonly format: MapFormatName;
  readonly pageRank: PageRankOptions;
  readonly missingFiles: MissingFiles;
  readonly cwd: string;
  readonly onWarning: (message: string) => void;
}

/** Checks `request` (an OptionError names the first bad option; a NoMapError a budget of 0) and fills in every default. */
export function resolveMapRequest(request: MapRequest): ResolvedMapRequest {
  checkMapRequest(request);
  const maxTokens = request.maxTokens ?? DEFAULTS.maxTokens;
  if (maxTokens <= 0) throw new NoMapError(`a budget of ${maxTokens} tokens holds no map`);
  const ranker = RANKERS[request.ranking ?? 'task'];
  const signals = { ...ALL_SIGNALS, ...request.signals };
  return {
    ranker: { ...ranker, readsHistory: ranker.ranksForTask && (request.gitSignals ?? DEFAULTS.gitSignals) },
    maxTokens,
    query: request.query ?? '',
    tests: ranker.ranksForTask ? (request.tests ?? 'demote') : 'include',
    signals,
    historySource: request.historySource,
    chatFiles: request.chatFiles ?? [],
    mentionedFiles: request.mentionedFiles ?? [],
    mentionedIdents: request.mentionedIdents ?? [],
    scopes: request.scopes ?? [],
    anchors: request.anchors ?? [],
    excludeUnranked: request.excludeUnranked ?? false,
    maxContextWindow: request.maxContextWindow ?? 0,
    mapMulNoFiles: request.mapMulNoFiles ?? DEFAULTS.mapMulNoFiles,
    maxLineLength: request.maxLineLength ?? DEFAULTS.maxLineLength,
    style: request.style ?? DEFAULTS.style,
    explain: request.explain ?? false,
    format: request.format ?? 'text',
    pageRank: { ...DEFAULT_PAGERANK, ...request.pageRank },
    missingFiles: request.missingFiles ?? 'error',
    cwd: request.cwd ?? process.cwd(),
    onWarning: request.onWarning ?? (() => {}),
  };
}
