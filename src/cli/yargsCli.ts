import yargs, { type Options } from 'yargs';
import { UsageError } from '../errors.js';
import type { OptionTable } from '../options/optionSpec.js';
import { closestName } from './closestName.js';
import { COMMANDS, COMMON_OPTIONS, type CommandArgs, type CommandName, ROOT_POSITIONAL } from './commandTable.js';

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
    cli = cli.command(
      `${name} [${ROOT_POSITIONAL.name}]`,
      spec.describe,
      (command) => command.positional(ROOT_POSITIONAL.name, { type: 'string' }).options(yargsOptions(spec.options)),
      async (args) => {
        exitCode = await onCommand(name, args);
      },
    );
  }
  await cli
    .demandCommand(1, 'name a command: index, tags or map')
    .strict()
    .help(false)
    .version(false)
    .fail((message, error) => {
      throw error ?? new UsageError(withSuggestion(message, argv));
    })
    .parseAsync();
  return exitCode;
}

function yargsOptions(table: OptionTable): Record<string, Options> {
  const options: Record<string, Options> = {};
  for (const spec of Object.values(table)) {
    options[spec.flag] = { type: spec.kind === 'boolean' ? 'boolean' : 'string', array: spec.kind === 'strings', alias: spec.alias };
  }
  return options;
}

/** yargs' "Unknown argument: max-token" with the flag that was probably meant. */
function withSuggestion(message: string, argv: readonly string[]): string {
  const unknown = /^Unknown argument: (.+)$/.exec(message)?.[1];
  if (unknown === undefined || !argv.some((arg) => arg === `--${unknown}` || arg.startsWith(`--${unknown}=`))) return message;
  const command = argv.find((arg): arg is CommandName => Object.hasOwn(COMMANDS, arg));
  const tables = command ? [COMMANDS[command].options] : Object.values(COMMANDS).map((spec) => spec.options);
  const flags = tables.flatMap((table) => Object.values(table).map((spec: { flag: string }) => spec.flag));
  const suggestion = closestName(unknown, flags);
  return suggestion === undefined ? message : `${message}; did you mean --${suggestion}?`;
}
