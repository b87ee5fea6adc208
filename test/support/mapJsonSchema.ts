/**
 * The schema of `repomap map --format json` as the README documents it (Commands → map → JSON),
 * checked field by field: a field missing, of another type, or not documented is an error.
 */

/** What the output holds, as the README lists it. */
export interface MapJson {
  text: string;
  tokens: number;
  budget: number;
  shown: {
    path: string;
    rank: number;
    shownAs: 'lines' | 'path';
    definitions: { name: string; kind: string; line: number; signatureLines: number[]; scopeLines: number[] }[];
  }[];
  files: { path: string; rank: number; definitions: { name: string; kind: string; line: number; score: number }[] }[];
  definitions: { path: string; name: string; score: number }[];
  totals: { files: number; definitions: number; references: number; tokens: number };
  unlisted: { files: number; definitions: number };
  explain?: unknown;
}

type Check = (value: unknown, at: string, errors: string[]) => void;

const string: Check = (value, at, errors) => {
  if (typeof value !== 'string') errors.push(`${at}: not a string`);
};
const number: Check = (value, at, errors) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) errors.push(`${at}: not a finite number`);
};
const count: Check = (value, at, errors) => {
  if (!Number.isInteger(value) || (value as number) < 0) errors.push(`${at}: not a whole number`);
};
const line: Check = (value, at, errors) => {
  if (!Number.isInteger(value) || (value as number) < 1) errors.push(`${at}: not a 1-based line`);
};
const oneOf =
  (...choices: string[]): Check =>
  (value, at, errors) => {
    if (!choices.includes(value as string)) errors.push(`${at}: not one of ${choices.join(', ')}`);
  };
const list =
  (item: Check): Check =>
  (value, at, errors) => {
    if (!Array.isArray(value)) errors.push(`${at}: not an array`);
    else
      value.forEach((element, i) => {
        item(element, `${at}[${i}]`, errors);
      });
  };
/** Ascending, each once. */
const lines: Check = (value, at, errors) => {
  list(line)(value, at, errors);
  if (Array.isArray(value) && value.some((element, i) => i > 0 && element <= value[i - 1])) errors.push(`${at}: not ascending`);
};
const object =
  (fields: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (value, at, errors) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      errors.push(`${at}: not an object`);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [key, check] of Object.entries(fields)) {
      if (!(key in record)) errors.push(`${at}.${key}: missing`);
      else check(record[key], `${at}.${key}`, errors);
    }
    for (const [key, check] of Object.entries(optional)) if (key in record) check(record[key], `${at}.${key}`, errors);
    for (const key of Object.keys(record)) if (!(key in fields) && !(key in optional)) errors.push(`${at}.${key}: not documented`);
  };

const SHOWN_DEFINITION = object({ name: string, kind: string, line, signatureLines: lines, scopeLines: lines });
const SHOWN_FILE = object({ path: string, rank: number, shownAs: oneOf('lines', 'path'), definitions: list(SHOWN_DEFINITION) });
const RANKED_FILE = object({ path: string, rank: number, definitions: list(object({ name: string, kind: string, line, score: number })) });
const TOTALS = object({ files: count, definitions: count, references: count, tokens: count });

/** The explanation `--explain` adds (README: Commands → map → `--explain`). */
const boolean: Check = (value, at, errors) => {
  if (typeof value !== 'boolean') errors.push(`${at}: not a boolean`);
};
const nameOrNull: Check = (value, at, errors) => {
  if (value !== null) string(value, at, errors);
};
const PARTS = object({
  text: number,
  names: number,
  mentionedPaths: number,
  mentionedNames: number,
  graph: number,
  recency: number,
  coChange: number,
  role: number,
});
const EXPLAINED_FILE = object({
  path: string,
  shownFor: oneOf('anchor', 'important file', 'rank'),
  place: count,
  rank: number,
  parts: PARTS,
  queryTerms: list(string),
  mentionedPaths: list(string),
  mentionedNames: list(string),
  mentionedFile: boolean,
  mentionedIdents: list(string),
  anchor: number,
  chat: list(oneOf('imported by a chat file', 'imports a chat file', 'beside a chat file')),
  imports: list(string),
  importedBy: list(string),
  incoming: list(object({ name: string, weight: number })),
});
const CUT_ENTRY = object({ path: string, name: nameOrNull, lines, tokens: count, fits: boolean });
const EXPLANATION = object({ files: list(EXPLAINED_FILE), cut: object({ budget: count, tokens: count, next: list(CUT_ENTRY) }) });

const MAP_JSON = object(
  {
    text: string,
    tokens: count,
    budget: count,
    shown: list(SHOWN_FILE),
    files: list(RANKED_FILE),
    definitions: list(object({ path: string, name: string, score: number })),
    totals: TOTALS,
    unlisted: object({ files: count, definitions: count }),
  },
  { explain: EXPLANATION },
);

/** Every way `value` departs from the documented schema ([] when it follows it). */
export function mapJsonErrors(value: unknown): string[] {
  const errors: string[] = [];
  MAP_JSON(value, 'map', errors);
  return errors;
}
