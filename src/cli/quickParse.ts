import { type ParseArgsConfig, parseArgs } from 'node:util';
import { COMMANDS, COMMON_OPTIONS, type CommandArgs, type CommandName, isCommandName, type OptionSpec } from './commandTable.js';

export interface QuickParse {
  command: CommandName;
  args: CommandArgs;
}

/**
 * The plain command lines (`repomap map . -t 2048 -c a.py`) without loading yargs, which costs
 * 50 ms, most of a warm map's budget: Node's own parseArgs with the yargs option table. Anything
 * yargs might read otherwise, or would answer itself (help, an unknown or repeated flag, a
 * greedy list, a boolean given a value, a bad number or choice, `--`), returns null, and yargs
 * parses the line.
 */
export function quickParse(argv: readonly string[]): QuickParse | null {
  const [command, ...rest] = argv;
  if (!isCommandName(command)) return null;
  const specs: Record<string, OptionSpec> = { ...COMMON_OPTIONS, ...COMMANDS[command].options };
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', multiple: spec.array ?? false, ...(spec.alias ? { short: spec.alias } : {}) };
  }
  const parsed = (() => {
    try {
      return parseArgs({ args: [...rest], options, strict: true, allowPositionals: true, tokens: true });
    } catch {
      return null;
    }
  })();
  if (!parsed) return null;
  const { tokens, values, positionals } = parsed;
  const seen = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'option-terminator') return null;
    if (token.kind !== 'option') continue;
    const spec = specs[token.name]!;
    // `-t5` and `-vt 5`: yargs and parseArgs may split these differently.
    if (token.rawName.length === 2 && token.rawName !== rest[token.index]) return null;
    if (seen.has(token.name) && !spec.array) return null;
    seen.add(token.name);
    const following = tokens[i + 1];
    // yargs takes `-c a b` as two chat files and `--verbose false` as false.
    if (spec.array && following?.kind === 'positional') return null;
    if (spec.type === 'boolean' && following?.kind === 'positional' && /^(true|false)$/.test(following.value)) return null;
  }
  if (positionals.length > 1 || (positionals.length === 1 && values.root !== undefined)) return null;

  const args: CommandArgs = { _: [command] };
  for (const [name, spec] of Object.entries(specs)) {
    let value: unknown = values[name] ?? spec.default;
    if (value === undefined) continue;
    if (spec.type === 'number' && typeof value === 'string') {
      if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)) return null;
      value = Number(value);
    }
    if (spec.choices && !spec.choices.includes(String(value))) return null;
    args[name] = value;
    args[camelCase(name)] = value;
    if (spec.alias) args[spec.alias] = value;
  }
  if (positionals.length === 1) args.root = positionals[0];
  return { command, args };
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
