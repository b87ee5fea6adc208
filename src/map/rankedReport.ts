import type { IdentifierTables } from '../rank/identifierTables.js';
import { type Ranking, rankedDefinitions } from '../rank/rankDefinitions.js';
import { definitionsOfSlot, filePaths } from '../rank/tableLookups.js';

/** The ranking as `repomap map --format json` prints it. */
export interface RankedReport {
  /** Files in rank order (files outside the graph last, rank 0), chat files left out. */
  files: {
    path: string;
    rank: number;
    definitions: { name: string; kind: string; line: number; score: number }[];
  }[];
  /** Every ranked (file, identifier) pair, in rank order (aider's ranked_definitions). */
  definitions: { path: string; name: string; score: number }[];
  totals: RankedTotals;
}

export interface RankedTotals {
  files: number;
  definitions: number;
  references: number;
  tokens: number;
}

export function rankedReport(ranking: Ranking, tables: IdentifierTables, chatFiles: ReadonlySet<string>, totals: RankedTotals): RankedReport {
  const definitions = rankedDefinitions(ranking, tables);
  const definitionsByPath = new Map<string, RankedReport['files'][number]['definitions']>();
  definitions.forEach(({ path, name, score }, i) => {
    const slot = ranking.definitionSlots[i]!;
    let list = definitionsByPath.get(path);
    if (!list) {
      list = [];
      definitionsByPath.set(path, list);
    }
    for (const { line, kind } of definitionsOfSlot(tables, slot)) list.push({ name, kind, line, score });
  });
  const rankOf = new Map(ranking.fileRanks.map(({ path, rank }) => [path, rank]));
  const hidden = ranking.hiddenFiles;
  const ordered = [...ranking.fileRanks.map(({ path }) => path), ...filePaths(tables).filter((path, fileId) => !rankOf.has(path) && !hidden?.[fileId])];
  const files: RankedReport['files'] = [];
  for (const path of ordered) {
    if (chatFiles.has(path)) continue;
    const definitions = (definitionsByPath.get(path) ?? []).sort((a, b) => b.score - a.score || a.line - b.line);
    files.push({ path, rank: rankOf.get(path) ?? 0, definitions });
  }
  return { files, definitions, totals };
}
