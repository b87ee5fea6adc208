import { DEFAULTS } from '../defaults.js';
import type { RepoMap } from './composeMap.js';
import type { MapExplanation } from './explainMap.js';
import type { RankedReport } from './rankedReport.js';
import type { ShownFile } from './shownMap.js';

/**
 * What `repomap map --format json` prints (the README's Commands → map → JSON): the map as it
 * shows (its text, tokens and budget, and per shown file what it shows), then the head of the
 * ranking behind it, at the top level where it has always been, and how much of it is not listed.
 */
export interface MapJson extends RankedReport {
  text: string;
  tokens: number;
  budget: number;
  shown: readonly ShownFile[];
  /** How many of the ranking's files and (file, identifier) pairs are past the listed ones. */
  unlisted: { files: number; definitions: number };
  /** With `--explain` (the request's `explain`). */
  explain?: MapExplanation;
}

/**
 * The JSON of a map, its ranking cut to the first `listed` files and (file, identifier) pairs,
 * each listed file with the definitions of the listed pairs: a real repository's whole ranking
 * runs to megabytes.
 */
export function mapJson(map: RepoMap, listed: number = DEFAULTS.rankedListed): MapJson {
  const { files, definitions, totals } = map.ranked;
  const pairs = definitions.slice(0, listed);
  const listedPairs = new Set(pairs.map(({ path, name }) => `${path}\0${name}`));
  const json: MapJson = {
    text: map.text,
    tokens: map.report.tokens,
    budget: map.report.budget,
    shown: map.shown,
    files: files.slice(0, listed).map((file) => ({ ...file, definitions: file.definitions.filter(({ name }) => listedPairs.has(`${file.path}\0${name}`)) })),
    definitions: pairs,
    totals,
    unlisted: { files: Math.max(0, files.length - listed), definitions: Math.max(0, definitions.length - listed) },
  };
  if (map.explain) json.explain = map.explain;
  return json;
}
