import { DEFAULTS, LIMITS } from '../defaults.js';
import { LANGUAGES } from '../record/languageNames.js';
import { MAP_FORMAT_NAMES, MAP_STYLE_NAMES } from '../render/formats.js';
import type { IndexOptions, MapRequest } from './libraryOptions.js';
import type { OptionSpec } from './optionSpec.js';

// Every option is bounded, so that no value costs without limit (optionSpec bounds the lengths
// of strings and lists); each bound is far from any real use, as its comment says.

/** Ten minutes for one file, 60,000× what a typical file takes; Node runs a longer timer (past 2^31 - 1 ms) after 1 ms. */
const MAX_FILE_TIMEOUT_MS = 600_000;
/** A file is read whole in a worker: 64 MiB, 64× the default, is beyond any hand-written source. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** An hour of waiting for another run, far beyond the longest cold index measured. */
const MAX_INDEX_WAIT_MS = 3_600_000;
/** Budgets and context windows: 10M tokens, 5× the largest model windows. */
const MAX_TOKENS = 10_000_000;
/**
 * A task's text, in characters (a file of as many bytes never decodes to more): 1 Mi is 16× the
 * 65,536 characters GitHub allows an issue's body, and the ranking reads it in about a second. A
 * longer text is a mistake (a log, a binary), and cut short it would be another task: it is refused.
 */
export const MAX_QUERY_LENGTH = 1024 * 1024;

/** The index's options, keyed by the library's names: every command takes them. */
export const INDEX_OPTIONS = {
  root: {
    flag: 'root',
    kind: 'string',
    value: 'DIR',
    describe: 'Repository root (index, tags, map, export and import also take it as their positional; default: nearest .git ancestor, else cwd)',
  },
  cacheDir: { flag: 'cache-dir', kind: 'string', value: 'DIR', describe: 'Where the tag store lives (default <root>/.repomap)' },
  jobs: { flag: 'jobs', kind: 'integer', min: 1, max: LIMITS.maxJobs, value: 'N', describe: 'Parse worker threads (default: number of cores)' },
  ignore: { flag: 'ignore', kind: 'strings', value: 'GLOB', describe: 'gitignore-style pattern of files to leave out' },
  maxFileBytes: {
    flag: 'max-file-bytes',
    kind: 'integer',
    min: 0,
    max: MAX_FILE_BYTES,
    default: DEFAULTS.maxFileBytes,
    value: 'N',
    describe: 'Larger files are skipped as too-large',
  },
  fileTimeoutMs: {
    flag: 'file-timeout-ms',
    kind: 'number',
    above: 0,
    max: MAX_FILE_TIMEOUT_MS,
    default: DEFAULTS.fileTimeoutMs,
    value: 'MS',
    describe: 'A file whose parse, queries and record take longer is skipped as timeout',
  },
  indexWaitMs: {
    flag: 'index-wait-ms',
    kind: 'integer',
    min: 0,
    max: MAX_INDEX_WAIT_MS,
    default: DEFAULTS.indexWaitMs,
    value: 'MS',
    describe: 'How long to wait for another run indexing the same store, then index anyway',
  },
} as const satisfies Partial<Record<keyof IndexOptions, OptionSpec>>;

/** The layouts of src/render/formats.ts, which the map and the outline share. */
const FORMAT_OPTION = {
  flag: 'format',
  kind: 'choice',
  choices: MAP_FORMAT_NAMES,
  default: 'text',
  value: MAP_FORMAT_NAMES.join('|'),
} as const;

/** The map's options, keyed by the library's names (PageRank's nested under `pageRank`). */
export const MAP_OPTIONS = {
  maxTokens: {
    flag: 'max-tokens',
    alias: 't',
    kind: 'integer',
    min: 0,
    max: MAX_TOKENS,
    default: DEFAULTS.maxTokens,
    value: 'N',
    describe: 'Token budget (cl100k_base), never exceeded',
  },
  query: {
    flag: 'query',
    alias: 'q',
    kind: 'string',
    maxLength: MAX_QUERY_LENGTH,
    value: 'TEXT',
    describe: "The task's text: the files, names and words it mentions steer the ranking",
  },
  ranking: {
    flag: 'ranking',
    kind: 'choice',
    choices: ['task', 'aider'],
    default: 'task',
    value: 'task|aider',
    describe: "What the task needs (the default), or aider's ranking exactly",
  },
  tests: {
    flag: 'tests',
    kind: 'choice',
    choices: ['include', 'demote', 'exclude'],
    default: 'demote',
    value: 'include|demote|exclude',
    describe: 'Tests (and examples, docs) ranked with the code, below it, or left out',
  },
  chatFiles: { flag: 'chat-file', alias: 'c', kind: 'strings', value: 'FILE', describe: 'A file being edited: steers the ranking, left out of the map' },
  mentionedFiles: { flag: 'mention-file', alias: 'm', kind: 'strings', value: 'FILE', describe: 'A file the user mentioned' },
  mentionedIdents: { flag: 'mention-ident', alias: 'i', kind: 'strings', value: 'NAME', describe: 'An identifier the user mentioned' },
  scopes: {
    flag: 'scope',
    kind: 'strings',
    value: 'DIR',
    describe: 'Work inside DIR (a folder or file; repeatable): the ranking personalized to its files, the map restricted to them and the files they import',
  },
  anchors: { flag: 'anchor', alias: 'a', kind: 'strings', value: 'SPEC', describe: 'FILE, IDENT or FILE:IDENT: weighted x10 and always in the map' },
  missingFiles: {
    flag: 'missing-files',
    kind: 'choice',
    choices: ['error', 'warn'],
    default: 'error',
    value: 'error|warn',
    describe: 'A chat or mentioned FILE that is no file of the repository: an error, or a warning',
  },
  gitSignals: {
    flag: 'git-signals',
    kind: 'boolean',
    default: DEFAULTS.gitSignals,
    describe: 'Rank files changed recently, and files changed with the chat files, higher (git history; --no-git-signals: off)',
  },
  excludeUnranked: { flag: 'exclude-unranked', kind: 'boolean', default: false, describe: 'Leave out files that received no rank' },
  maxContextWindow: {
    flag: 'max-context-window',
    kind: 'integer',
    min: 1,
    max: MAX_TOKENS,
    value: 'N',
    describe: "The model's context window: with no chat files the budget grows, within it",
  },
  mapMulNoFiles: {
    flag: 'map-mul-no-files',
    kind: 'integer',
    min: 1,
    // aider's is 8; the budget it grows stays within the context window anyway.
    max: 1000,
    default: DEFAULTS.mapMulNoFiles,
    value: 'N',
    describe: 'How much the budget grows with no chat files',
  },
  maxLineLength: {
    flag: 'max-line-length',
    kind: 'integer',
    min: 1,
    // 100× the default: longer lines are minified code, shown cut either way.
    max: 10_000,
    default: DEFAULTS.maxLineLength,
    value: 'N',
    describe: 'Cut map lines to this many characters',
  },
  style: {
    flag: 'style',
    kind: 'choice',
    choices: MAP_STYLE_NAMES,
    default: DEFAULTS.style,
    value: MAP_STYLE_NAMES.join('|'),
    describe: "Each definition's signature under its enclosing scopes' heads, or aider's rendering",
  },
  explain: {
    flag: 'explain',
    kind: 'boolean',
    default: false,
    describe: 'Also why each shown file ranks where it does, and what the budget cut (on stderr; with --format json, its explain field)',
  },
  format: { ...FORMAT_OPTION, describe: "aider's text, or compact (a legend, importers, symbols), xml or markdown: each within the budget" },
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
    // At files × 1 or more, PageRank stops after its first iteration.
    below: 1,
    default: DEFAULTS.pageRank.tolerance,
    value: 'TOL',
    describe: 'PageRank stops when the change falls below files × TOL',
  },
  pageRankMaxIterations: {
    flag: 'pagerank-max-iter',
    name: 'pageRank.maxIterations',
    kind: 'integer',
    min: 1,
    // 10× networkx's default; each iteration walks every edge.
    max: 1000,
    default: DEFAULTS.pageRank.maxIterations,
    value: 'N',
    describe: "PageRank's most iterations",
  },
} as const satisfies Partial<Record<keyof MapRequest | `pageRank${string}`, OptionSpec>>;

/** How much of each definition an outline shows: files: the tree of paths; signatures: each definition's head; full: its first doc line too. */
export const OUTLINE_DETAILS = ['files', 'signatures', 'full'] as const;

/** A path of PATH_LENGTH bytes has at most half as many folders. */
const MAX_FOLDER_DEPTH = 2048;

/** The outline's options (src/navigate/outline.ts), keyed by the library's names. */
export const OUTLINE_OPTIONS = {
  detail: {
    flag: 'detail',
    kind: 'choice',
    choices: OUTLINE_DETAILS,
    default: 'signatures',
    value: 'files|signatures|full',
    describe: "The tree of paths, each definition's signature too, or its first doc line too",
  },
  depth: {
    flag: 'depth',
    kind: 'integer',
    min: 0,
    max: MAX_FOLDER_DEPTH,
    value: 'N',
    describe: 'Levels of folders shown below PATH (default all); deeper files are counted',
  },
  format: { ...FORMAT_OPTION, describe: 'How the outline is written (see the README); --json gives it as data' },
  languages: { flag: 'lang', kind: 'strings', choices: LANGUAGES, value: 'LANG', describe: `Only files of this language: ${LANGUAGES.join(', ')}` },
  tests: { flag: 'tests', kind: 'boolean', default: false, describe: 'Keep test files, left out unless PATH is a test file or folder' },
  maxTokens: {
    flag: 'max-tokens',
    alias: 't',
    kind: 'integer',
    min: 0,
    max: MAX_TOKENS,
    value: 'N',
    default: DEFAULTS.outlineTokens,
    describe: 'Token budget (cl100k_base), never exceeded',
  },
} as const satisfies Record<string, OptionSpec>;
