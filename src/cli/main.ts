#!/usr/bin/env node
import { RepomapError } from '../errors.js';
import { runCommand } from './commandTable.js';
import { quickParse } from './quickParse.js';

/**
 * The CLI's one place that turns errors into exit codes: 0 ok, 1 error, 2 no map. The common
 * case is parsed without loading yargs; help and errors go through yargs.
 */
async function main(argv: string[]): Promise<number> {
  try {
    const quick = quickParse(argv);
    if (quick) return await runCommand(quick.command, quick.args);
    const { parseWithYargs } = await import('./yargsCli.js');
    return await parseWithYargs(argv, runCommand);
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

const exitCode = await main(process.argv.slice(2));
// Module loading leaves file handles closing in the background (up to 10 ms here): a finished
// run with its output written need not wait for them.
if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(exitCode);
process.exitCode = exitCode;
