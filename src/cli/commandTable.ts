import type { ArgsOf, OptionSpec } from '../options/optionSpec.js';
import { INDEX_OPTIONS, MAP_OPTIONS, OUTLINE_OPTIONS } from '../options/optionTable.js';
import type { ParsedFlags } from '../options/readFlags.js';

export const ROOT_POSITIONAL = { name: 'root', describe: 'Repository root (default: nearest .git ancestor, else cwd)' } as const;

/** What a command's positional names, as help shows it: the root, unless the row says otherwise. */
export interface Positional {
  readonly name: string;
  readonly describe: string;
}

const VERBOSE = {
  flag: 'verbose',
  alias: 'v',
  kind: 'boolean',
  default: false,
  describe: 'Report sizes and the time of each stage on stderr',
} as const satisfies OptionSpec;

/** The options every command takes: the index's, and --verbose. */
export const COMMON_OPTIONS = { ...INDEX_OPTIONS, verbose: VERBOSE } as const;

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
  outline: {
    describe: 'Print the tree of files under PATH with their definitions as signatures, methods under their classes',
    positional: {
      name: 'path',
      describe: 'A file or folder of the repository (default: the whole root; the root is --root, else the nearest .git ancestor, else cwd)',
    },
    options: {
      ...COMMON_OPTIONS,
      ...OUTLINE_OPTIONS,
      json: { flag: 'json', kind: 'boolean', default: false, describe: 'Print the outline as JSON: the tree shown, counts, the text and its tokens' },
    },
  },
} as const satisfies Record<string, { describe: string; positional?: Positional; options: Readonly<Record<string, OptionSpec>> }>;

export type CommandName = keyof typeof COMMANDS;

/** The values command `C` runs with, typed from its options. */
export type ArgsFor<C extends CommandName> = ArgsOf<(typeof COMMANDS)[C]['options']>;

export type CommonArgs = ArgsOf<typeof COMMON_OPTIONS>;

/** The arguments as a parser hands them over: values keyed by flag, and the positionals under `_` (see runCommand). */
export type CommandArgs = ParsedFlags & { readonly _?: readonly string[] };

/** The positional of `command`, as help names it. */
export function positionalOf(command: CommandName): Positional {
  const row = COMMANDS[command];
  return 'positional' in row ? row.positional : ROOT_POSITIONAL;
}

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}
