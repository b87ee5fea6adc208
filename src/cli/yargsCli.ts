import yargs from 'yargs';
import { UsageError } from '../errors.js';
import { COMMANDS, COMMON_OPTIONS, type CommandArgs, type CommandName, ROOT_POSITIONAL } from './commandTable.js';

/** Parses `argv` with yargs and hands each command's arguments to `onCommand`. */
export async function parseWithYargs(argv: string[], onCommand: (command: CommandName, args: CommandArgs) => Promise<number>): Promise<number> {
  let exitCode = 0;
  let cli = yargs(argv).scriptName('repomap').usage('$0 <command> [root] [options]').options(COMMON_OPTIONS);
  for (const [name, spec] of Object.entries(COMMANDS) as [CommandName, (typeof COMMANDS)[CommandName]][]) {
    cli = cli.command(
      `${name} [root]`,
      spec.describe,
      (command) => command.positional('root', ROOT_POSITIONAL).options(spec.options),
      async (args) => {
        exitCode = await onCommand(name, args);
      },
    );
  }
  await cli
    .demandCommand(1, 'name a command: index, tags or map')
    .strict()
    .help()
    .version(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    })
    .parseAsync();
  return exitCode;
}
