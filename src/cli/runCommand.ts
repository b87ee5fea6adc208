import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { type ParsedFlags, readFlags } from '../options/readFlags.js';
import { COMMANDS, type CommandArgs, type CommandName } from './commandTable.js';

/** Checks a command's arguments and runs it; its module is imported only when it runs. */
export async function runCommand(command: CommandName, args: CommandArgs): Promise<number> {
  if (command === 'find' || command === 'deps' || command === 'refs') return runWithPositional(command, args);
  const parsed = rootFromPositionals(args);
  switch (command) {
    case 'index': {
      const args = readFlags(COMMANDS.index.options, parsed);
      const { runIndexCommand } = await import('./indexCommand.js');
      return runIndexCommand(args);
    }
    case 'tags': {
      const args = readFlags(COMMANDS.tags.options, parsed);
      const { runTagsCommand } = await import('./tagsCommand.js');
      return runTagsCommand(args);
    }
    case 'map': {
      const args = readFlags(COMMANDS.map.options, parsed);
      const { runMapCommand } = await import('./mapCommand.js');
      return runMapCommand(args);
    }
  }
}

/** A command whose positional is its question (NAME, FILE): the root is --root's, or found from the working directory. */
async function runWithPositional(command: 'find' | 'deps' | 'refs', { _: positionals = [], ...flags }: CommandArgs): Promise<number> {
  const label = COMMANDS[command].positional.name;
  if (positionals.length === 0) throw new UsageError(`${command} needs a ${label} (see 'repomap ${command} --help')`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}': ${command} takes one ${label} (the root is --root DIR)`);
  const positional = positionals[0]!;
  if (command === 'find') {
    const args = readFlags(COMMANDS.find.options, flags);
    const { runFindCommand } = await import('./findCommand.js');
    return runFindCommand(positional, args);
  }
  const args = readFlags(COMMANDS[command].options, flags);
  const { runDepsCommand } = await import('./depsCommand.js');
  return runDepsCommand(command, positional, args);
}

/**
 * The flags with the positional as `root`: a command takes one root, positional (words after
 * `--` too, so a root may start with a dash) or --root, or both when they name the same folder.
 */
function rootFromPositionals({ _: positionals = [], ...flags }: CommandArgs): ParsedFlags {
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}': a command takes one root`);
  const [positional] = positionals;
  if (positional === undefined) return flags;
  const given: unknown[] = Array.isArray(flags.root) ? flags.root : flags.root === undefined ? [] : [flags.root];
  // An empty --root is for readFlags to report.
  if (given.includes('')) return flags;
  const flag = given.at(-1);
  if (flag !== undefined && resolve(String(flag)) !== resolve(positional)) throw new UsageError(`two roots given: ${positional} and --root ${flag}`);
  return { ...flags, root: positional };
}
