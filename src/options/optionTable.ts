import { DEFAULTS } from '../defaults.js';
import type { IndexOptions, MapRequest } from './libraryOptions.js';
import type { OptionSpec } from './optionSpec.js';

/** The index's options, keyed by the library's names: every command takes them. */
export const INDEX_OPTIONS = {
  root: { flag: 'root', kind: 'string', value: 'DIR', describe: 'Repository root (same as the positional)' },
  cacheDir: { flag: 'cache-dir', kind: 'string', value: 'DIR', describe: 'Where the tag store lives (default <root>/.repomap)' },
  jobs: { flag: 'jobs', kind: 'integer', min: 1, value: 'N', describe: 'Parse worker threads (default: number of cores)' },
  ignore: { flag: 'ignore', kind: 'strings', value: 'GLOB', describe: 'gitignore-style pattern of files to leave out' },
  maxFileBytes: {
    flag: 'max-file-bytes',
    kind: 'integer',
    min: 0,
    default: DEFAULTS.maxFileBytes,
    value: 'N',
    describe: 'Larger files are skipped as too-large',
  },
  fileTimeoutMs: {
    flag: 'file-timeout-ms',
    kind: 'number',
    above: 0,
    default: DEFAULTS.fileTimeoutMs,
    value: 'MS',
    describe: 'A file whose parse takes longer is skipped as timeout',
  },
} as const satisfies Partial<Record<keyof IndexOptions, OptionSpec>>;

/** The map's options, keyed by the library's names (PageRank's nested under `pageRank`). */
export const MAP_OPTIONS = {
  maxTokens: {
    flag: 'max-tokens',
    alias: 't',
    kind: 'integer',
    min: 0,
    default: DEFAULTS.maxTokens,
    value: 'N',
    describe: 'Token budget (cl100k_base), never exceeded',
  },
  chatFiles: { flag: 'chat-file', alias: 'c', kind: 'strings', value: 'FILE', describe: 'A file being edited: steers the ranking, left out of the map' },
  mentionedFiles: { flag: 'mention-file', alias: 'm', kind: 'strings', value: 'FILE', describe: 'A file the user mentioned' },
  mentionedIdents: { flag: 'mention-ident', alias: 'i', kind: 'strings', value: 'NAME', describe: 'An identifier the user mentioned' },
  anchors: { flag: 'anchor', alias: 'a', kind: 'strings', value: 'SPEC', describe: 'FILE, IDENT or FILE:IDENT: weighted x10 and always in the map' },
  missingFiles: {
    flag: 'missing-files',
    kind: 'choice',
    choices: ['error', 'warn'],
    default: 'error',
    value: 'error|warn',
    describe: 'A chat or mentioned FILE that is no file of the repository: an error, or a warning',
  },
  excludeUnranked: { flag: 'exclude-unranked', kind: 'boolean', default: false, describe: 'Leave out files that received no rank' },
  maxContextWindow: {
    flag: 'max-context-window',
    kind: 'integer',
    min: 1,
    value: 'N',
    describe: "The model's context window: with no chat files the budget grows, within it",
  },
  mapMulNoFiles: {
    flag: 'map-mul-no-files',
    kind: 'integer',
    min: 1,
    default: DEFAULTS.mapMulNoFiles,
    value: 'N',
    describe: 'How much the budget grows with no chat files',
  },
  maxLineLength: {
    flag: 'max-line-length',
    kind: 'integer',
    min: 1,
    default: DEFAULTS.maxLineLength,
    value: 'N',
    describe: 'Cut map lines to this many characters',
  },
  style: {
    flag: 'style',
    kind: 'choice',
    choices: ['signatures', 'aider'],
    default: DEFAULTS.style,
    value: 'signatures|aider',
    describe: "Each definition's signature under its enclosing scopes' heads, or aider's rendering",
  },
  pageRankDamping: {
    flag: 'pagerank-damping',
    name: 'pageRank.damping',
    kind: 'number',
    above: 0,
    below: 1,
    default: DEFAULTS.pageRank.damping,
    value: 'D',
    describe: "PageRank's damping factor",
  },
  pageRankTolerance: {
    flag: 'pagerank-tol',
    name: 'pageRank.tolerance',
    kind: 'number',
    above: 0,
    default: DEFAULTS.pageRank.tolerance,
    value: 'TOL',
    describe: 'PageRank stops when the change falls below files × TOL',
  },
  pageRankMaxIterations: {
    flag: 'pagerank-max-iter',
    name: 'pageRank.maxIterations',
    kind: 'integer',
    min: 1,
    default: DEFAULTS.pageRank.maxIterations,
    value: 'N',
    describe: "PageRank's most iterations",
  },
} as const satisfies Partial<Record<keyof MapRequest | `pageRank${string}`, OptionSpec>>;
