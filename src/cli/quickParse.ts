import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parseNumber } from '../options/optionSpec.js';
import { COMMANDS, type CommandArgs, type CommandName, isCommandName } from './commandTable.js';

export interface QuickParse {
  command: CommandName;
  args: CommandArgs;
}

/**
 * The plain command lines (`repomap map . -t 2048 -c a.py`) without loading yargs, which costs
 * 50 ms, most of a warm map's budget: Node's own parseArgs with the option table, handing over
 * what yargs would. Anything yargs might read otherwise, or that is an error (an unknown or
 * repeated flag, a flag with no value, a greedy list, a boolean given a value, a bad number or
 * choice, `--`), returns null, and yargs parses the line.
 */
export function quickParse(argv: readonly string[]): QuickParse | null {
  const [command, ...rest] = argv;
  if (!isCommandName(command)) return null;
  const specs = Object.values(COMMANDS[command].options);
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const spec of specs) {
    options[spec.flag] = {
      type: spec.kind === 'boolean' ? 'boolean' : 'string',
      multiple: spec.kind === 'strings',
      ...('alias' in spec ? { short: spec.alias } : {}),
    };
  }
  const parsed = (() => {
    try {
      // `--no-git-signals` as yargs reads it: the boolean, false.
      return parseArgs({ args: [...rest], options, strict: true, allowPositionals: true, allowNegative: true, tokens: true });
    } catch {
      return null;
    }
  })();
  if (!parsed) return null;
  const { tokens, values, positionals } = parsed;
  const specOf = new Map(specs.map((spec) => [spec.flag, spec]));
  const seen = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'option-terminator') return null;
    if (token.kind !== 'option') continue;
    const spec = specOf.get(token.name)!;
    // `-t5` and `-vt 5`: yargs and parseArgs may split these differently.
    if (token.rawName.length === 2 && token.rawName !== rest[token.index]) return null;
    if (seen.has(token.name) && spec.kind !== 'strings') return null;
    seen.add(token.name);
    if (token.value === '') return null;
    const following = tokens[i + 1];
    // yargs takes `-c a b` as two chat files and `--verbose false` as false.
    if (spec.kind === 'strings' && following?.kind === 'positional') return null;
    if (spec.kind === 'boolean' && following?.kind === 'positional' && /^(true|false)$/.test(following.value)) return null;
    if ((spec.kind === 'integer' || spec.kind === 'number') && parseNumber(token.value ?? '') === null) return null;
    if (spec.kind === 'choice' && !spec.choices.includes(token.value ?? '')) return null;
  }
  return { command, args: { ...values, _: positionals } };
}
