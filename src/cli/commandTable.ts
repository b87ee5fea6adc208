import { DEFAULTS } from '../defaults.js';

/** An option as yargs takes it: the same table drives yargs and the quick parser (quickParse.ts). */
export interface OptionSpec {
  type: 'string' | 'number' | 'boolean';
  alias?: string;
  array?: boolean;
  default?: string | number | boolean;
  choices?: readonly string[];
  describe?: string;
}

export type CommandName = 'index' | 'tags' | 'map';

export interface CommandSpec {
  describe: string;
  options: Record<string, OptionSpec>;
}

export const ROOT_POSITIONAL = { type: 'string', describe: 'Repository root (default: nearest .git ancestor, else cwd)' } as const;

export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  'cache-dir': { type: 'string', describe: 'Where the tag store lives (default <root>/.repomap)' },
  jobs: { type: 'number', describe: 'Parse worker threads (default: number of cores)' },
  ignore: { type: 'string', array: true, describe: 'gitignore-style pattern of files to leave out (repeatable)' },
  'max-file-bytes': { type: 'number', default: DEFAULTS.maxFileBytes, describe: 'Larger files are skipped' },
  'file-timeout-ms': { type: 'number', default: DEFAULTS.fileTimeoutMs, describe: 'A file whose parse takes longer is skipped' },
  verbose: { type: 'boolean', alias: 'v', default: false, describe: 'Report the time of each stage on stderr' },
};

export const COMMANDS: Record<CommandName, CommandSpec> = {
  index: {
    describe: 'Parse the repository and bring its tag store up to date',
    options: {
      json: { type: 'boolean', default: false, describe: 'Print the summary as JSON on stdout' },
    },
  },
  tags: {
    describe: 'Print the tags of the repository (indexing first when needed)',
    options: {
      format: { type: 'string', choices: ['jsonl'], default: 'jsonl', describe: 'Output format' },
    },
  },
  map: {
    describe: 'Print the ranked, token-budgeted map of the repository (indexing first when needed)',
    options: {
      root: { type: 'string', describe: 'Repository root (same as the positional)' },
      'max-tokens': { type: 'number', alias: 't', default: DEFAULTS.maxTokens, describe: 'Token budget (cl100k_base), never exceeded' },
      'chat-file': { type: 'string', alias: 'c', array: true, describe: 'A file being edited: steers the ranking, left out of the map' },
      'mention-file': { type: 'string', alias: 'm', array: true, describe: 'A file the user mentioned' },
      'mention-ident': { type: 'string', alias: 'i', array: true, describe: 'An identifier the user mentioned' },
      anchor: { type: 'string', alias: 'a', array: true, describe: 'FILE, IDENT or FILE:IDENT: weighted x10 and always in the map' },
      'exclude-unranked': { type: 'boolean', default: false, describe: 'Leave out files that received no rank' },
      'max-context-window': { type: 'number', describe: "The model's context window: with no chat files the budget grows, within it" },
      'map-mul-no-files': { type: 'number', default: DEFAULTS.mapMulNoFiles, describe: 'How much the budget grows with no chat files' },
      format: { type: 'string', choices: ['text', 'json'], default: 'text', describe: 'The map, or the ranking behind it as JSON' },
      'max-line-length': { type: 'number', default: DEFAULTS.maxLineLength, describe: 'Cut map lines to this many characters' },
      'pagerank-damping': { type: 'number', default: DEFAULTS.pageRank.damping },
      'pagerank-tol': { type: 'number', default: DEFAULTS.pageRank.tolerance },
      'pagerank-max-iter': { type: 'number', default: DEFAULTS.pageRank.maxIterations },
    },
  },
};

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}

/** The parsed arguments a command module receives, as yargs would hand them over. */
export type CommandArgs = Record<string, unknown>;

/** Runs a command; its module is imported only when it runs. */
export async function runCommand(command: CommandName, args: CommandArgs): Promise<number> {
  switch (command) {
    case 'index': {
      const { runIndexCommand } = await import('./indexCommand.js');
      return runIndexCommand(args as unknown as Parameters<typeof runIndexCommand>[0]);
    }
    case 'tags': {
      const { runTagsCommand } = await import('./tagsCommand.js');
      return runTagsCommand(args as unknown as Parameters<typeof runTagsCommand>[0]);
    }
    case 'map': {
      const { runMapCommand } = await import('./mapCommand.js');
      return runMapCommand(args as unknown as Parameters<typeof runMapCommand>[0]);
    }
  }
}
