import yargs, { type Options } from 'yargs';
import { OptionError, UsageError } from '../errors.js';
import type { OptionSpec, OptionTable } from '../options/optionSpec.js';
import { closestName } from './closestName.js';
import { COMMANDS, COMMON_OPTIONS, type CommandArgs, type CommandName, commandList } from './commandTable.js';

/**
 * Parses `argv` with yargs and hands each command's arguments to `onCommand`, keyed by flag as
 * quickParse hands them: every value a string (readFlags checks and converts it), no defaults.
 * Help is ours (helpText.ts): yargs only parses.
 */
export async function parseWithYargs(argv: string[], onCommand: (command: CommandName, args: CommandArgs) => Promise<number>): Promise<number> {
  let exitCode = 0;
  let cli = yargs(argv)
    .parserConfiguration({ 'parse-numbers': false, 'parse-positional-numbers': false, 'camel-case-expansion': false })
    .options(yargsOptions(COMMON_OPTIONS));
  for (const [name, spec] of Object.entries(COMMANDS) as [CommandName, (typeof COMMANDS)[CommandName]][]) {
    // Positionals are read from `_`, as quickParse's are (runCommand names them): a declared root would hide a --root given with it.
    cli = cli.command(
      name,
      spec.describe,
      (command) => command.options(yargsOptions(spec.options)),
      async (args) => {
        exitCode = await onCommand(name, { ...args, _: args._.slice(1).map(String) });
      },
    );
  }
  await cli
    .demandCommand(1, `name a command: ${commandList()}`)
    .strictOptions()
    .help(false)
    .version(false)
    .fail((message: string | null, error: Error | undefined) => {
      // yargs' own complaints (YError) are usage errors; what a command threw passes through.
      if (error && error.name !== 'YError') throw error;
      throw usageError(message ?? error?.message ?? '', argv);
    })
    .parseAsync();
  return exitCode;
}

function yargsOptions(table: OptionTable): Record<string, Options> {
  const options: Record<string, Options> = {};
  for (const spec of Object.values(table)) {
    const takesValue = spec.kind !== 'boolean';
    options[spec.flag] = { type: takesValue ? 'string' : 'boolean', array: spec.kind === 'strings', alias: spec.alias, requiresArg: takesValue };
  }
  return options;
}

/**
 * yargs' message in our words: a flag given no value named as readFlags names it, and an unknown
 * flag with the one that was probably meant.
 */
function usageError(message: string, argv: readonly string[]): UsageError {
  const command = argv.find((arg): arg is CommandName => Object.hasOwn(COMMANDS, arg));
  const specs: OptionSpec[] = (command ? [COMMANDS[command]] : Object.values(COMMANDS)).flatMap((spec) => Object.values(spec.options));
  const valueless = /^Not enough arguments following: (.+)$/.exec(message)?.[1];
  const spec = valueless === undefined ? undefined : specs.find((candidate) => candidate.flag === valueless || candidate.alias === valueless);
  if (spec) return new OptionError(`--${spec.flag}`, 'needs a value');
  const unknown = /^Unknown argument: (.+)$/.exec(message)?.[1];
  if (unknown === undefined || !argv.some((arg) => arg === `--${unknown}` || arg.startsWith(`--${unknown}=`))) return new UsageError(message);
  const suggestion = closestName(
    unknown,
    specs.map((candidate) => candidate.flag),
  );
  return new UsageError(suggestion === undefined ? message : `${message}; did you mean --${suggestion}?`);
}
