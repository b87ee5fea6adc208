import { DEFAULTS } from '../defaults.js';
import { TOOL_SUMMARIES } from '../mcp/toolList.js';
import type { ArgsOf, OptionSpec } from '../options/optionSpec.js';
import { INDEX_OPTIONS, MAP_OPTIONS, OUTLINE_OPTIONS } from '../options/optionTable.js';
import type { ParsedFlags } from '../options/readFlags.js';
import { REFRESH_POLICIES } from '../serve/refreshPolicies.js';

/** The most references `at` lists per position: beyond a few thousand a list is a dump, not an answer. */
const MAX_AT_REFERENCES = 10_000;

/**
 * The command registry: a command is one row here and one module that runs it. Both parsers,
 * the help and runCommand read the rows; a command's module is imported only when it runs.
 */

/**
 * A word of a command line that is no flag, read in order. `root` is the repository root (the
 * option --root, given positionally); a `variadic` one, the last, takes the rest.
 */
export interface PositionalSpec {
  readonly name: string;
  readonly describe: string;
  readonly required: boolean;
  readonly variadic?: boolean;
  /** How usage lines name it (`NAME`, `FILE:LINE[:COL]`); default its name. */
  readonly value?: string;
}

export const ROOT_POSITIONAL = { name: 'root', describe: 'Repository root (default: nearest .git ancestor, else cwd)', required: false } as const;

const VERBOSE = {
  flag: 'verbose',
  alias: 'v',
  kind: 'boolean',
  default: false,
  describe: 'Report sizes and the time of each stage on stderr',
} as const satisfies OptionSpec;

/** The options every command takes: the index's, and --verbose. */
export const COMMON_OPTIONS = { ...INDEX_OPTIONS, verbose: VERBOSE } as const;

/**
 * A command's module, typed loosely here (a row cannot name its own args' type without a
 * cycle); each module's `run` takes ArgsFor<its name>, and runCommand hands it exactly that.
 */
type RunCommand = (args: never) => Promise<number>;

/** A row: the help line, the positionals and options, and the loader of the module that runs the command. */
export interface CommandRow {
  readonly describe: string;
  readonly positionals: readonly PositionalSpec[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly load: () => Promise<RunCommand>;
  /** Lines the command's help ends with. */
  readonly notes?: readonly string[];
}

const FILE_POSITIONAL = { name: 'file', value: 'FILE', describe: 'A file of the repository', required: true } as const;

const ARTIFACT_POSITIONAL = { name: 'artifact', value: 'FILE', describe: 'The index artifact (written by export)', required: true } as const;

const JSON_FLAG = { flag: 'json', kind: 'boolean', default: false, describe: 'Print the result as JSON on stdout' } as const satisfies OptionSpec;
/** Results of `find`: a name used in every file of a large repository is still a page, not the repository. */
const MAX_FIND_LIMIT = 10_000;
/** Lines each side of a result: more is the file, which an editor shows better. */
const MAX_CONTEXT = 50;
/** Import steps of `deps`/`refs`: real import chains are far shorter; the closure is every file at most. */
const MAX_DEPTH = 64;

const DEPS_OPTIONS = {
  ...COMMON_OPTIONS,
  depth: {
    flag: 'depth',
    kind: 'integer',
    min: 1,
    max: MAX_DEPTH,
    default: 1,
    value: 'N',
    describe: 'Follow imports N steps (the transitive closure to that depth)',
  },
  nameLinks: {
    flag: 'name-links',
    kind: 'boolean',
    default: false,
    describe: 'Also list, apart, the files linked only by names (one references what the other defines, no import)',
  },
  json: JSON_FLAG,
} as const;
const { root: _oneRoot, ...COMMON_BUT_ROOT } = COMMON_OPTIONS;
/** How long a server's call may wait for its root's refresh: an agent's tool call should not hang on an index. */
const MAX_ANSWER_WAIT_MS = 600_000;

export const COMMANDS = {
  index: {
    describe: 'Parse the repository and bring its tag store up to date',
    positionals: [ROOT_POSITIONAL],
    options: {
      ...COMMON_OPTIONS,
      shard: {
        flag: 'shard',
        kind: 'string',
        value: 'K/N',
        describe: 'Index only part K of N of the files (cut by parse bytes, the same on every machine), for a CI matrix; merge the parts with merge',
      },
      export: { flag: 'export', kind: 'string', value: 'FILE', describe: 'Then write the store to FILE as an artifact (see export)' },
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print the summary, skipped files included, as JSON on stdout' },
      listSkipped: { flag: 'list-skipped', kind: 'boolean', default: false, describe: 'Print each file that got no tags as a line: <reason> TAB <path>' },
    },
    load: async (): Promise<RunCommand> => (await import('./indexCommand.js')).run,
  },
  tags: {
    describe: 'Print the tags of the repository (indexing first when needed)',
    positionals: [ROOT_POSITIONAL],
    options: {
      ...COMMON_OPTIONS,
      format: { flag: 'format', kind: 'choice', choices: ['jsonl'], default: 'jsonl', value: 'jsonl', describe: 'Output format' },
    },
    load: async (): Promise<RunCommand> => (await import('./tagsCommand.js')).run,
  },
  map: {
    describe: 'Print the ranked, token-budgeted map of the repository (indexing first when needed)',
    positionals: [ROOT_POSITIONAL],
    options: {
      ...COMMON_OPTIONS,
      ...MAP_OPTIONS,
      queryFile: { flag: 'query-file', kind: 'string', value: 'FILE', describe: "The task's text from a file ('-' for stdin), as --query" },
      ranked: {
        flag: 'ranked',
        kind: 'integer',
        min: 0,
        // The whole ranking of a 100,000-file tree, which is the most anyone lists.
        max: 1_000_000,
        default: DEFAULTS.rankedListed,
        value: 'N',
        describe: 'With --format json: the files and the (file, identifier) pairs of the ranking listed, each the first N (0: none)',
      },
      format: {
        ...MAP_OPTIONS.format,
        choices: [...MAP_OPTIONS.format.choices, 'json'],
        value: `${MAP_OPTIONS.format.value}|json`,
        describe: 'The map as text, compact, xml or markdown (each within the budget), or as JSON the map, what it shows and the ranking behind it',
      },
    },
    load: async (): Promise<RunCommand> => (await import('./mapCommand.js')).run,
  },
  find: {
    describe: 'Print where a name is defined and referenced, best-ranked files first',
    positionals: [{ name: 'name', value: 'NAME', describe: 'A name, or a qualified one: Class.method, pkg.Func, mod::Type', required: true }],
    options: {
      ...COMMON_OPTIONS,
      kind: { flag: 'kind', kind: 'choice', choices: ['def', 'ref', 'all'], default: 'all', value: 'def|ref|all', describe: 'Definitions, references or both' },
      in: { flag: 'in', kind: 'strings', value: 'PATH', describe: 'Only results in this file or folder' },
      context: {
        flag: 'context',
        alias: 'C',
        kind: 'integer',
        min: 0,
        max: MAX_CONTEXT,
        default: 0,
        value: 'N',
        describe: 'Lines of context around each result',
      },
      limit: { flag: 'limit', kind: 'integer', min: 1, max: MAX_FIND_LIMIT, default: 200, value: 'N', describe: 'The most results printed, definitions first' },
      json: JSON_FLAG,
    },
    load: async (): Promise<RunCommand> => (await import('./findCommand.js')).run,
  },
  deps: {
    describe: 'Print the files FILE imports (resolved imports), with the lines and names of each link',
    positionals: [FILE_POSITIONAL],
    options: DEPS_OPTIONS,
    load: async (): Promise<RunCommand> => (await import('./depsCommand.js')).runDeps,
  },
  refs: {
    describe: 'Print the files that import FILE (resolved imports), with the lines and names of each link',
    positionals: [FILE_POSITIONAL],
    options: DEPS_OPTIONS,
    load: async (): Promise<RunCommand> => (await import('./depsCommand.js')).runRefs,
  },
  at: {
    describe: 'The identifier at FILE:LINE[:COL] (1-based): its definitions, how each was found, its references and a hover text',
    positionals: [
      {
        name: 'positions',
        describe: 'FILE:LINE[:COL], 1-based; without COL the first tagged identifier on the line',
        required: true,
        variadic: true,
        value: 'FILE:LINE[:COL]',
      },
    ],
    options: {
      ...COMMON_OPTIONS,
      json: JSON_FLAG,
      maxReferences: {
        flag: 'max-references',
        kind: 'integer',
        min: 0,
        max: MAX_AT_REFERENCES,
        default: 50,
        value: 'N',
        describe: 'References listed per position (0: none)',
      },
    },
    load: async (): Promise<RunCommand> => (await import('./atCommand.js')).run,
  },
  outline: {
    describe: 'Print the tree of files under PATH with their definitions as signatures, methods under their classes',
    positionals: [
      {
        name: 'path',
        value: 'PATH',
        required: false,
        describe: 'A file or folder of the repository (default the whole root, which is --root, else the nearest .git ancestor, else cwd)',
      },
    ],
    options: {
      ...COMMON_OPTIONS,
      ...OUTLINE_OPTIONS,
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print the outline as JSON: the tree shown, counts, the text and its tokens' },
    },
    load: async (): Promise<RunCommand> => (await import('./outlineCommand.js')).run,
  },
  export: {
    describe: 'Index the repository, then write its tag store to FILE as one compressed, checksummed artifact',
    positionals: [ARTIFACT_POSITIONAL, ROOT_POSITIONAL],
    options: {
      ...COMMON_OPTIONS,
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print what was written as JSON on stdout' },
    },
    load: async (): Promise<RunCommand> => (await import('./exportCommand.js')).run,
  },
  import: {
    describe: "Seed the repository's tag store from an artifact, each record checked against the tree's file by content",
    positionals: [ARTIFACT_POSITIONAL, ROOT_POSITIONAL],
    options: {
      ...COMMON_OPTIONS,
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print what was imported as JSON on stdout' },
    },
    load: async (): Promise<RunCommand> => (await import('./importCommand.js')).run,
  },
  merge: {
    describe: "Join the parts of a sharded index (index --shard K/N --export PART) into one artifact, through the root's store",
    positionals: [{ name: 'parts', value: 'PART', describe: 'The artifacts of the parts', required: true, variadic: true }],
    options: {
      ...COMMON_OPTIONS,
      output: { flag: 'output', alias: 'o', kind: 'string', value: 'FILE', describe: 'The merged artifact to write (required)' },
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print what was imported and written as JSON on stdout' },
    },
    load: async (): Promise<RunCommand> => (await import('./mergeCommand.js')).run,
  },
  mcp: {
    describe: 'Serve the map and the navigation commands to coding agents over the Model Context Protocol (stdio), the index kept up to date',
    positionals: [],
    options: {
      ...COMMON_BUT_ROOT,
      roots: {
        flag: 'root',
        kind: 'strings',
        value: 'DIR',
        describe: 'A repository root to serve (default: nearest .git ancestor, else cwd)',
      },
      refresh: {
        flag: 'refresh',
        kind: 'choice',
        choices: REFRESH_POLICIES,
        default: 'auto',
        value: REFRESH_POLICIES.join('|'),
        describe:
          'When the index is brought up to date: auto (watch the roots), always (every call), files (when a file a call names changed), manual (the refresh tool)',
      },
      answerWaitMs: {
        flag: 'answer-wait-ms',
        kind: 'integer',
        min: 0,
        max: MAX_ANSWER_WAIT_MS,
        default: 2000,
        value: 'MS',
        describe: "The longest a call waits for its root's index to be brought up to date before it is answered that the index is busy",
      },
    },
    load: async (): Promise<RunCommand> => (await import('./mcpCommand.js')).run,
    notes: ['Tools:', ...Object.entries(TOOL_SUMMARIES).map(([name, summary]) => `  ${name.padEnd(13)}  ${summary}`)],
  },
} as const satisfies Record<string, CommandRow>;

export type CommandName = keyof typeof COMMANDS;

type PositionalsOf<P extends readonly PositionalSpec[]> = {
  -readonly [S in Exclude<P[number], typeof ROOT_POSITIONAL> as S['name']]: S extends { variadic: true }
    ? string[]
    : S extends { required: true }
      ? string
      : string | undefined;
};

/** The values command `C` runs with, typed from its options and positionals (the root is the option). */
export type ArgsFor<C extends CommandName> = ArgsOf<(typeof COMMANDS)[C]['options']> & PositionalsOf<(typeof COMMANDS)[C]['positionals']>;

export type CommonArgs = ArgsOf<typeof COMMON_OPTIONS>;

/** The arguments as a parser hands them over: values keyed by flag, and the positionals under `_` (see runCommand). */
export type CommandArgs = ParsedFlags & { readonly _?: readonly string[] };

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}

/** The command names as a message lists them: "index, tags or map". */
export function commandList(): string {
  const names = Object.keys(COMMANDS);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
