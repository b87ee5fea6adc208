#!/usr/bin/env node
import { RepomapError, UsageError } from '../errors.js';
import { COMMANDS, isCommandName } from './commandTable.js';
import { quickParse } from './quickParse.js';
import { runCommand } from './runCommand.js';
import { writeStderrLine } from './stderrLine.js';

/**
 * The CLI's one place that turns errors into exit codes: 0 ok, 1 error, 2 no map. The common
 * case is parsed without loading yargs; odd lines and errors go through yargs; help and the
 * version are ours.
 */
async function main(argv: string[]): Promise<number> {
  try {
    const [first] = argv;
    if (first === '--version' || first === '-V') {
      const { packageVersion } = await import('../packageFiles.js');
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    if (first === undefined) throw new UsageError("name a command: index, tags, map, find, deps or refs (see 'repomap --help')");
    if (!first.startsWith('-') && !isCommandName(first)) throw new UsageError(await unknownCommand(first));
    if (asksForHelp(argv)) {
      const { commandHelp, mainHelp } = await import('./helpText.js');
      process.stdout.write(isCommandName(first) ? commandHelp(first) : mainHelp());
      return 0;
    }
    const quick = quickParse(argv);
    if (quick) return await runCommand(quick.command, quick.args);
    const { parseWithYargs } = await import('./yargsCli.js');
    return await parseWithYargs(argv, runCommand);
  } catch (error) {
    if (error instanceof RepomapError) {
      writeStderrLine(error.message);
      return error.exitCode;
    }
    // Unexpected, but still one line: the message, not the stack.
    writeStderrLine(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** `-h` or `--help` anywhere before a `--`. */
function asksForHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '--help') return true;
  }
  return false;
}

async function unknownCommand(given: string): Promise<string> {
  const { closestName } = await import('./closestName.js');
  const suggestion = closestName(given, Object.keys(COMMANDS));
  return `unknown command '${given}'${suggestion ? `; did you mean '${suggestion}'?` : ": the commands are index, tags, map, find, deps and refs (see 'repomap --help')"}`;
}

// A reader that stops early (`repomap tags | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// The CLI owns its process, so it may do what the library must not: lmdb's msgpackr then skips its
// native string extractor, which costs about 5 ms of every run and decodes our records no faster.
process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED ??= 'true';
const exitCode = await main(process.argv.slice(2));
// Module loading leaves file handles closing in the background (up to 10 ms here): a finished
// run with its output written need not wait for them.
if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(exitCode);
process.exitCode = exitCode;
