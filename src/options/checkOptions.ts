import { OptionError } from '../errors.js';
import type { ArtifactOptions, IndexOptions, MapRequest } from './libraryOptions.js';
import { type OptionTable, PATH_LENGTH, problemWith, quoted } from './optionSpec.js';
import { INDEX_OPTIONS, MAP_OPTIONS, OUTLINE_OPTIONS } from './optionTable.js';

/** A library-only option holding a path (it has no flag). */
const PATH_OPTION = { flag: '', kind: 'string', maxLength: PATH_LENGTH, describe: '' } as const;

/** Throws an OptionError naming the first of the index's options that has a value it cannot take. */
export function checkIndexOptions(options: IndexOptions): void {
  checkAgainst(INDEX_OPTIONS, options);
  const { shard } = options;
  if (shard === undefined) return;
  const whole = (value: unknown): value is number => Number.isSafeInteger(value);
  if (!whole(shard?.part) || !whole(shard.of) || shard.of < 1 || shard.of > MAX_SHARDS || shard.part < 1 || shard.part > shard.of) {
    throw new OptionError('shard', `must be { part, of } with 1 <= part <= of <= ${MAX_SHARDS}, not ${quoted(shard)}`);
  }
}

/** Parts of a sharded index: CI matrices stop far below (GitHub Actions runs 256 jobs per matrix). */
export const MAX_SHARDS = 1024;

/** Throws an OptionError naming the first of an export's or import's options that has a value it cannot take. */
export function checkArtifactOptions(options: ArtifactOptions): void {
  checkIndexOptions(options);
  if (typeof options.artifact !== 'string' || options.artifact === '') throw new OptionError('artifact', 'must name a file');
  checkAgainst({ artifact: PATH_OPTION }, options);
}

/** Throws an OptionError naming the first of the map's options that has a value it cannot take. */
export function checkMapRequest(request: MapRequest): void {
  checkAgainst(MAP_OPTIONS, request);
  checkAgainst({ cwd: PATH_OPTION }, request);
  const source = request.historySource;
  if (source !== undefined && (typeof source?.gitDir !== 'string' || typeof source.commit !== 'string'))
    throw new OptionError('historySource', `must be { gitDir, commit } (two strings), not ${quoted(source)}`);
  checkAgainst({ gitDir: { ...PATH_OPTION, name: 'historySource.gitDir' }, commit: { ...PATH_OPTION, name: 'historySource.commit' } }, request);
}

/** Throws an OptionError naming the first of an outline's options that has a value it cannot take. */
export function checkOutlineOptions(options: object): void {
  // A null budget is none, which only the library asks for.
  const { maxTokens, ...rest } = options as { maxTokens?: unknown };
  checkAgainst(OUTLINE_OPTIONS, maxTokens === null ? rest : options);
  checkAgainst({ path: PATH_OPTION }, options);
}

function checkAgainst(table: OptionTable, options: object): void {
  for (const [key, spec] of Object.entries(table)) {
    const name = spec.name ?? key;
    const value = valueAt(options as Readonly<Record<string, unknown>>, name);
    const problem = value === undefined ? null : problemWith(spec, value);
    if (problem !== null) throw new OptionError(name, problem);
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
