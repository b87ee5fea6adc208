/**
 * One option, described once: its flag, the kind and limits of its value, its default and its
 * help. The CLI's parsers, its help and the library's checks all read these.
 */
export interface OptionSpec {
  /** The flag, without its dashes. */
  readonly flag: string;
  readonly alias?: string;
  /** The library's name for it, when that is not the table's key (`pageRank.damping`). */
  readonly name?: string;
  readonly kind: 'integer' | 'number' | 'string' | 'strings' | 'boolean' | 'choice';
  /** For an integer: the least value it may take (0 unless said otherwise). */
  readonly min?: number;
  /** For an integer or a number: the most it may take. */
  readonly max?: number;
  /** For a number: bounds it must lie strictly within (above 0 unless said otherwise). */
  readonly above?: number;
  readonly below?: number;
  /** For a string, or each string of a list: the most characters (UTF-16 code units) it may hold; PATH_LENGTH unless said otherwise. */
  readonly maxLength?: number;
  /** For a list: the most strings it may hold (MAX_ITEMS unless said otherwise). */
  readonly maxItems?: number;
  readonly choices?: readonly string[];
  readonly default?: number | string | boolean;
  /** How help names the value: N, FILE, … */
  readonly value?: string;
  readonly describe: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S['kind'] extends 'integer' | 'number'
  ? number
  : S['kind'] extends 'boolean'
    ? boolean
    : S['kind'] extends 'strings'
      ? string[]
      : S extends { choices: readonly (infer C)[] }
        ? C
        : string;

/** The values of a table of options as a command receives them: set whenever the option has a default. */
export type ArgsOf<T extends OptionTable> = {
  -readonly [K in keyof T]: T[K] extends { default: unknown } ? ValueOf<T[K]> : ValueOf<T[K]> | undefined;
};

/** Linux's PATH_MAX in bytes, so no shorter than any path the system opens; names, patterns and anchors are shorter still. */
export const PATH_LENGTH = 4096;
/** Chat files, mentions, anchors, ignore patterns: a person names tens; a script listing a change's files, hundreds. */
export const MAX_ITEMS = 1000;

/**
 * What is wrong with a value of the option, as an error says it after the option's name ("must
 * be a whole number from 1 to 64, not '0'"), or null when it may take it. `given` is the value
 * as the caller wrote it, when that is not `value` (a flag's text).
 */
export function problemWith(spec: OptionSpec, value: unknown, given: unknown = value): string | null {
  if (!accepts(spec, value)) return `must be ${requirement(spec)}, not ${quoted(given)}`;
  const maxLength = spec.maxLength ?? PATH_LENGTH;
  if (spec.kind === 'string') {
    const { length } = value as string;
    return length > maxLength ? `must be a string of at most ${maxLength} characters, not one of ${length}` : null;
  }
  if (spec.kind !== 'strings') return null;
  const items = value as readonly string[];
  const unknown = spec.choices ? items.find((item) => !spec.choices?.includes(item)) : undefined;
  if (unknown !== undefined) return `takes values among ${spec.choices?.join(', ')}, not ${quoted(unknown)}`;
  const maxItems = spec.maxItems ?? MAX_ITEMS;
  if (items.length > maxItems) return `takes at most ${maxItems} values, not ${items.length}`;
  const longest = Math.max(0, ...items.map((item) => item.length));
  return longest > maxLength ? `takes values of at most ${maxLength} characters, not one of ${longest}` : null;
}

/** What a value of the option must be, as an error says it: "a whole number from 1 to 64". */
function requirement(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'integer': {
      const min = spec.min ?? 0;
      if (spec.max !== undefined) return `a whole number from ${min} to ${spec.max}`;
      return min > 0 ? `a whole number of at least ${min}` : 'a whole number';
    }
    case 'number': {
      const upper = spec.max !== undefined ? ` and at most ${spec.max}` : spec.below !== undefined ? ` and less than ${spec.below}` : '';
      return `a number greater than ${spec.above ?? 0}${upper}`;
    }
    case 'choice':
      return `one of ${spec.choices?.join(', ')}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a string';
    case 'strings':
      return 'a list of strings';
  }
}

function accepts(spec: OptionSpec, value: unknown): boolean {
  switch (spec.kind) {
    case 'integer':
      return Number.isInteger(value) && (value as number) >= (spec.min ?? 0) && (value as number) <= (spec.max ?? Infinity);
    case 'number':
      return (
        typeof value === 'number' && Number.isFinite(value) && value > (spec.above ?? 0) && value < (spec.below ?? Infinity) && value <= (spec.max ?? Infinity)
      );
    case 'choice':
      return typeof value === 'string' && (spec.choices?.includes(value) ?? false);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
  }
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number written in decimal (`2048`, `0.5`, `1e-6`), or null: no hex, no blanks, no `Infinity`. */
export function parseNumber(text: string): number | null {
  return NUMBER.test(text) ? Number(text) : null;
}

/** Beyond this, an error line quotes the start of a value: a line, not a page. */
const QUOTED_CHARS = 80;

/** A value as an error quotes it. */
export function quoted(value: unknown): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return `'${text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text}'`;
}
