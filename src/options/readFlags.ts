import { OptionError } from '../errors.js';
import { type ArgsOf, type OptionSpec, type OptionTable, parseNumber, problemWith } from './optionSpec.js';

/** What a command-line parser read: values keyed by flag, as given (strings, booleans, lists of strings). */
export type ParsedFlags = Readonly<Record<string, unknown>>;

/**
 * A command's values from the flags a parser read: each checked against its spec and named by
 * its flag when it fails (`--max-tokens must be a whole number, not 'abc'`), defaults filled in.
 * A flag given twice keeps its last value, as git's and ripgrep's do.
 */
export function readFlags<T extends OptionTable>(table: T, parsed: ParsedFlags): ArgsOf<T> {
  const args: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const given = parsed[spec.flag];
    args[key] = given === undefined ? spec.default : flagValue(spec, given);
  }
  return args as ArgsOf<T>;
}

function flagValue(spec: OptionSpec, given: unknown): unknown {
  const flag = `--${spec.flag}`;
  const texts = (Array.isArray(given) ? given : [given]).map((item) => (typeof item === 'boolean' ? item : String(item)));
  // `--max-tokens=` and `-c ''` give no value either.
  if (texts.includes('')) throw new OptionError(flag, 'needs a value');
  const text = texts[texts.length - 1]!;
  if (spec.kind === 'boolean') return text === true || text === 'true';
  const value = spec.kind === 'strings' ? texts : spec.kind === 'integer' || spec.kind === 'number' ? (parseNumber(String(text)) ?? text) : text;
  const problem = problemWith(spec, value, spec.kind === 'strings' ? texts : text);
  if (problem !== null) throw new OptionError(flag, problem);
  return value;
}
