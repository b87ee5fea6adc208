import { OptionError } from '../errors.js';
import type { IndexOptions, MapRequest } from './libraryOptions.js';
import { accepts, type OptionTable, quoted, requirement } from './optionSpec.js';
import { INDEX_OPTIONS, MAP_OPTIONS } from './optionTable.js';

/** Throws an OptionError naming the first of the index's options that has a value it cannot take. */
export function checkIndexOptions(options: IndexOptions): void {
  checkAgainst(INDEX_OPTIONS, options);
}

/** Throws an OptionError naming the first of the map's options that has a value it cannot take. */
export function checkMapRequest(request: MapRequest): void {
  checkAgainst(MAP_OPTIONS, request);
  if (request.cwd !== undefined && typeof request.cwd !== 'string') throw new OptionError('cwd', `must be a string, not ${quoted(request.cwd)}`);
  const source = request.historySource;
  if (source !== undefined && (typeof source?.gitDir !== 'string' || typeof source.commit !== 'string'))
    throw new OptionError('historySource', `must be { gitDir, commit } (two strings), not ${quoted(source)}`);
}

function checkAgainst(table: OptionTable, options: object): void {
  for (const [key, spec] of Object.entries(table)) {
    const name = spec.name ?? key;
    const value = valueAt(options as Readonly<Record<string, unknown>>, name);
    if (value !== undefined && !accepts(spec, value)) throw new OptionError(name, `must be ${requirement(spec)}, not ${quoted(value)}`);
  }
}

/** The value of `name`, or of `group.name` inside its group. */
function valueAt(options: Readonly<Record<string, unknown>>, name: string): unknown {
  const dot = name.indexOf('.');
  if (dot < 0) return options[name];
  const groupName = name.slice(0, dot);
  const group = options[groupName];
  if (group === undefined) return undefined;
  if (typeof group !== 'object' || group === null) throw new OptionError(groupName, `must be an object, not ${quoted(group)}`);
  return (group as Readonly<Record<string, unknown>>)[name.slice(dot + 1)];
}
