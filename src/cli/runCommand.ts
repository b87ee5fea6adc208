import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { type ParsedFlags, readFlags } from '../options/readFlags.js';
import { COMMANDS, type CommandArgs, type CommandName, type PositionalSpec, ROOT_POSITIONAL } from './commandTable.js';

/** Checks a command's arguments against its row and runs it; its module is imported only now. */
export async function runCommand(command: CommandName, args: CommandArgs): Promise<number> {
  const spec = COMMANDS[command];
  const { flags, positionals } = readPositionals(command, spec.positionals, args);
  const values = { ...readFlags(spec.options, flags), ...positionals };
  const run = await spec.load();
  return run(values as never);
}

/**
 * The positionals by name, in the order the row declares them (words after `--` too, so one
 * may start with a dash); the root goes to the flags as `root`. A command takes one root,
 * positional or --root, or both when they name the same folder.
 */
function readPositionals(
  command: CommandName,
  specs: readonly PositionalSpec[],
  { _: words = [], ...flags }: CommandArgs,
): { flags: ParsedFlags; positionals: Record<string, string | string[] | undefined> } {
  const positionals: Record<string, string | string[] | undefined> = {};
  let next = 0;
  let root: string | undefined;
  for (const spec of specs) {
    if (spec.variadic) {
      positionals[spec.name] = words.slice(next);
      next = words.length;
    } else if (spec.name === ROOT_POSITIONAL.name) {
      root = words[next++];
    } else {
      positionals[spec.name] = words[next++];
    }
    const given = positionals[spec.name];
    if (spec.required && (given === undefined || given.length === 0)) {
      throw new UsageError(`${command} needs ${spec.variadic ? 'at least one' : 'a'} ${spec.value ?? spec.name} (see 'repomap ${command} --help')`);
    }
  }
  if (next < words.length) {
    const takes =
      specs.length === 0 ? 'no arguments' : specs.map((spec) => (spec === ROOT_POSITIONAL ? 'one root' : `one ${spec.value ?? spec.name}`)).join(' and ');
    throw new UsageError(`unexpected argument '${words[next]}': repomap ${command} takes ${takes}`);
  }
  return { flags: root === undefined ? flags : withRoot(flags, root), positionals };
}

function withRoot(flags: ParsedFlags, positional: string): ParsedFlags {
  const given: unknown[] = Array.isArray(flags.root) ? flags.root : flags.root === undefined ? [] : [flags.root];
  // An empty --root is for readFlags to report.
  if (given.includes('')) return flags;
  const flag = given.at(-1);
  if (flag !== undefined && resolve(String(flag)) !== resolve(positional)) throw new UsageError(`two roots given: ${positional} and --root ${flag}`);
  return { ...flags, root: positional };
}
