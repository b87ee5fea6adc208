import type { RepoMap } from './composeMap.js';
import type { MapExplanation } from './explainMap.js';
import type { RankedReport } from './rankedReport.js';
import type { ShownFile } from './shownMap.js';

/**
 * What `repomap map --format json` prints (the README's Commands → map → JSON): the map as it
 * shows (its text, tokens and budget, and per shown file what it shows), then the ranking behind
 * it, whole, at the top level where it has always been.
 */
export interface MapJson extends RankedReport {
  text: string;
  tokens: number;
  budget: number;
  shown: readonly ShownFile[];
  /** With `--explain` (the request's `explain`). */
  explain?: MapExplanation;
}

export function mapJson(map: RepoMap): MapJson {
  const { files, definitions, totals } = map.ranked;
  const json: MapJson = { text: map.text, tokens: map.report.tokens, budget: map.report.budget, shown: map.shown, files, definitions, totals };
  if (map.explain) json.explain = map.explain;
  return json;
}
