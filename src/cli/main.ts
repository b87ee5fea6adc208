#!/usr/bin/env node
import { DEFAULTS } from '../defaults.js';
import { RepomapError, UsageError } from '../errors.js';

/**
 * The CLI's one place that turns errors into exit codes: 0 ok, 1 error, 2 no map.
 * Command modules are imported only when their command runs.
 */
async function main(argv: string[]): Promise<number> {
  const { default: yargs } = await import('yargs');
  let exitCode = 0;
  const cli = yargs(argv)
    .scriptName('repomap')
    .usage('$0 <command> [root] [options]')
    .option('cache-dir', { type: 'string', describe: 'Where the tag store lives (default <root>/.repomap)' })
    .option('jobs', { type: 'number', describe: 'Parse worker threads (default: number of cores)' })
    .option('ignore', { type: 'string', array: true, describe: 'gitignore-style pattern of files to leave out (repeatable)' })
    .option('max-file-bytes', { type: 'number', default: DEFAULTS.maxFileBytes, describe: 'Larger files are skipped' })
    .option('file-timeout-ms', { type: 'number', default: DEFAULTS.fileTimeoutMs, describe: 'A file whose parse takes longer is skipped' })
    .option('verbose', { alias: 'v', type: 'boolean', default: false, describe: 'Report the time of each stage on stderr' })
    .command(
      'index [root]',
      'Parse the repository and bring its tag store up to date',
      (command) =>
        command
          .positional('root', { type: 'string', describe: 'Repository root (default: nearest .git ancestor, else cwd)' })
          .option('json', { type: 'boolean', default: false, describe: 'Print the summary as JSON on stdout' }),
      async (args) => {
        const { runIndexCommand } = await import('./indexCommand.js');
        exitCode = await runIndexCommand(args);
      },
    )
    .command(
      'tags [root]',
      'Print the tags of the repository (indexing first when needed)',
      (command) =>
        command
          .positional('root', { type: 'string', describe: 'Repository root (default: nearest .git ancestor, else cwd)' })
          .option('format', { choices: ['jsonl'] as const, default: 'jsonl' as const, describe: 'Output format' }),
      async (args) => {
        const { runTagsCommand } = await import('./tagsCommand.js');
        exitCode = await runTagsCommand(args);
      },
    )
    .command(
      'map [root]',
      'Print the ranked, token-budgeted map of the repository (indexing first when needed)',
      (command) =>
        command
          .positional('root', { type: 'string', describe: 'Repository root (default: nearest .git ancestor, else cwd)' })
          .option('root', { type: 'string', describe: 'Repository root (same as the positional)' })
          .option('max-tokens', { alias: 't', type: 'number', default: DEFAULTS.maxTokens, describe: 'Token budget (cl100k_base), never exceeded' })
          .option('chat-file', { alias: 'c', type: 'string', array: true, describe: 'A file being edited: steers the ranking, left out of the map' })
          .option('mention-file', { alias: 'm', type: 'string', array: true, describe: 'A file the user mentioned' })
          .option('mention-ident', { alias: 'i', type: 'string', array: true, describe: 'An identifier the user mentioned' })
          .option('anchor', { alias: 'a', type: 'string', array: true, describe: 'FILE, IDENT or FILE:IDENT: weighted x10 and always in the map' })
          .option('exclude-unranked', { type: 'boolean', default: false, describe: 'Leave out files that received no rank' })
          .option('max-context-window', { type: 'number', describe: "The model's context window: with no chat files the budget grows, within it" })
          .option('map-mul-no-files', { type: 'number', default: DEFAULTS.mapMulNoFiles, describe: 'How much the budget grows with no chat files' })
          .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'The map, or the ranking behind it as JSON' })
          .option('max-line-length', { type: 'number', default: DEFAULTS.maxLineLength, describe: 'Cut map lines to this many characters' })
          .option('pagerank-damping', { type: 'number', default: DEFAULTS.pageRank.damping })
          .option('pagerank-tol', { type: 'number', default: DEFAULTS.pageRank.tolerance })
          .option('pagerank-max-iter', { type: 'number', default: DEFAULTS.pageRank.maxIterations }),
      async (args) => {
        const { runMapCommand } = await import('./mapCommand.js');
        exitCode = await runMapCommand(args);
      },
    )
    .demandCommand(1, 'name a command: index, tags or map')
    .strict()
    .help()
    .version(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await cli.parseAsync();
    return exitCode;
  } catch (error) {
    if (error instanceof RepomapError) {
      process.stderr.write(`repomap: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`repomap: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

// A reader that stops early (`repomap tags | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
