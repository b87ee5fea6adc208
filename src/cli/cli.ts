import { saveCodeCaches } from '../codeCache.js';
import { RepomapError, UsageError } from '../errors.js';
import { COMMANDS, commandList, isCommandName } from './commandTable.js';
import { exitProcess } from './exitProcess.js';
import { quickParse } from './quickParse.js';
import { runCommand } from './runCommand.js';
import { writeStderrLine } from './stderrLine.js';

/**
 * The CLI as a function, which owns its process: what the unbundled entry (main.ts) and the
 * bundled one (launcher.ts) run.
 */

/** What the CLI's bundle exports: the CLI, and for the build's training run one command's run and the code caches of the bundles the CLI loaded. */
export interface BundledCli {
  runCli: typeof runCli;
  exitCodeOf: typeof exitCodeOf;
  saveCodeCaches: typeof saveCodeCaches;
}
export { saveCodeCaches };

/**
 * Runs the command `argv` names, writes its output, and ends the process with its exit code.
 */
export async function runCli(argv: string[]): Promise<never> {
  // A reader that stops early (`repomap tags | head`) is not an error; any other failure to write is one line.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') writeStderrLine(`cannot write the output: ${error.code ?? error.message}`);
    exitProcess(error.code === 'EPIPE' ? Number(process.exitCode ?? 0) : 1);
  });
  // A stderr that cannot be written to has no reader to tell.
  process.stderr.on('error', () => {});
  // The CLI owns its process, so it may do what the library must not: lmdb's msgpackr then skips its
  // native string extractor, which costs about 5 ms of every run and decodes our records no faster.
  process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED ??= 'true';
  const exitCode = await exitCodeOf(argv);
  process.exitCode = exitCode;
  // Once its output is written the run is over: nothing left running in the background (module
  // loading's file handles, a timer, a worker) may keep the process alive, so exit explicitly,
  // at once when the output is written already, else as soon as the reader has taken it.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  return exitProcess(exitCode);
}

/**
 * The CLI's one place that turns errors into exit codes: 0 ok, 1 error, 2 no map. The common
 * case is parsed without loading yargs; odd lines and errors go through yargs; help and the
 * version are ours.
 */
export async function exitCodeOf(argv: string[]): Promise<number> {
  try {
    const [first] = argv;
    if (first === '--version' || first === '-V') {
      const { packageVersion } = await import('../packageFiles.js');
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    if (first === undefined) throw new UsageError(`name a command: ${commandList()} (see 'repomap --help')`);
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
  return `unknown command '${given}'${suggestion ? `; did you mean '${suggestion}'?` : `: the commands are ${commandList().replace(/ or /, ' and ')} (see 'repomap --help')`}`;
}

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return stream.writableLength === 0 ? Promise.resolve() : new Promise((resolve) => stream.write('', () => resolve()));
}
