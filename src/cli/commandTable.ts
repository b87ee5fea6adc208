import type { ArgsOf, OptionSpec } from '../options/optionSpec.js';
import { INDEX_OPTIONS, MAP_OPTIONS } from '../options/optionTable.js';
import type { ParsedFlags } from '../options/readFlags.js';

export const ROOT_POSITIONAL = { name: 'root', describe: 'Repository root (default: nearest .git ancestor, else cwd)' } as const;

const VERBOSE = {
  flag: 'verbose',
  alias: 'v',
  kind: 'boolean',
  default: false,
  describe: 'Report sizes and the time of each stage on stderr',
} as const satisfies OptionSpec;

/** The options every command takes: the index's, and --verbose. */
export const COMMON_OPTIONS = { ...INDEX_OPTIONS, verbose: VERBOSE } as const;

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

/** Each command's options, the common ones first; the parsers and the help read this table. */
export const COMMANDS = {
  index: {
    describe: 'Parse the repository and bring its tag store up to date',
    options: {
      ...COMMON_OPTIONS,
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print the summary, skipped files included, as JSON on stdout' },
      listSkipped: { flag: 'list-skipped', kind: 'boolean', default: false, describe: 'Print each file that got no tags as a line: <reason> TAB <path>' },
    },
  },
  tags: {
    describe: 'Print the tags of the repository (indexing first when needed)',
    options: {
      ...COMMON_OPTIONS,
      format: { flag: 'format', kind: 'choice', choices: ['jsonl'], default: 'jsonl', value: 'jsonl', describe: 'Output format' },
    },
  },
  map: {
    describe: 'Print the ranked, token-budgeted map of the repository (indexing first when needed)',
    options: {
      ...COMMON_OPTIONS,
      ...MAP_OPTIONS,
      queryFile: { flag: 'query-file', kind: 'string', value: 'FILE', describe: "The task's text from a file ('-' for stdin), as --query" },
      format: {
        flag: 'format',
        kind: 'choice',
        choices: ['text', 'json'],
        default: 'text',
        value: 'text|json',
        describe: 'The map, or the ranking behind it as JSON',
      },
    },
  },
  find: {
    describe: 'Print where a name is defined and referenced, best-ranked files first',
    positional: { name: 'NAME', describe: 'A name, or a qualified one: Class.method, pkg.Func, mod::Type' },
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
  },
  deps: {
    describe: 'Print the files FILE imports (resolved imports), with the lines and names of each link',
    positional: { name: 'FILE', describe: 'A file of the repository' },
    options: DEPS_OPTIONS,
  },
  refs: {
    describe: 'Print the files that import FILE (resolved imports), with the lines and names of each link',
    positional: { name: 'FILE', describe: 'A file of the repository' },
    options: DEPS_OPTIONS,
  },
} as const satisfies Record<string, { describe: string; positional?: { name: string; describe: string }; options: Readonly<Record<string, OptionSpec>> }>;

export type CommandName = keyof typeof COMMANDS;

/** The values command `C` runs with, typed from its options. */
export type ArgsFor<C extends CommandName> = ArgsOf<(typeof COMMANDS)[C]['options']>;

export type CommonArgs = ArgsOf<typeof COMMON_OPTIONS>;

/** The arguments as a parser hands them over: values keyed by flag, and the positionals under `_` (see runCommand). */
export type CommandArgs = ParsedFlags & { readonly _?: readonly string[] };

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}
