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
  /** For a number: bounds it must lie strictly within (above 0 unless said otherwise). */
  readonly above?: number;
  readonly below?: number;
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

/** What a value of the option must be, as an error says it: "a whole number of at least 1". */
export function requirement(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'integer':
      return spec.min !== undefined && spec.min > 0 ? `a whole number of at least ${spec.min}` : 'a whole number';
    case 'number':
      return `a number greater than ${spec.above ?? 0}${spec.below === undefined ? '' : ` and less than ${spec.below}`}`;
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

export function accepts(spec: OptionSpec, value: unknown): boolean {
  switch (spec.kind) {
    case 'integer':
      return Number.isInteger(value) && (value as number) >= (spec.min ?? 0);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value > (spec.above ?? 0) && value < (spec.below ?? Infinity);
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

/** A value as an error quotes it. */
export function quoted(value: unknown): string {
  return `'${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}'`;
}
