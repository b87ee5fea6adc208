import type { Ranking } from '../rank/rankDefinitions.js';
import type { FileRecord } from '../record/fileRecord.js';

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
  totals: { files: number; definitions: number; references: number; tokens: number };
}

export function rankedReport(ranking: Ranking, records: ReadonlyMap<string, FileRecord>, chatFiles: ReadonlySet<string>, tokens: number): RankedReport {
  const scores = new Map<string, Map<string, number>>();
  for (const { path, name, score } of ranking.definitions) {
    let byName = scores.get(path);
    if (!byName) scores.set(path, (byName = new Map()));
    byName.set(name, score);
  }
  const rankOf = new Map(ranking.fileRanks.map(({ path, rank }) => [path, rank]));
  const ordered = [...ranking.fileRanks.map(({ path }) => path), ...[...records.keys()].filter((path) => !rankOf.has(path)).sort()];
  const files: RankedReport['files'] = [];
  for (const path of ordered) {
    if (chatFiles.has(path)) continue;
    const byName = scores.get(path);
    const definitions = (records.get(path)?.definitions ?? [])
      .filter((definition) => byName?.has(definition.name))
      .map(({ name, kind, line }) => ({ name, kind, line, score: byName!.get(name)! }))
      .sort((a, b) => b.score - a.score || a.line - b.line);
    files.push({ path, rank: rankOf.get(path) ?? 0, definitions });
  }
  let definitionCount = 0;
  let referenceCount = 0;
  for (const record of records.values()) {
    definitionCount += record.definitions.length;
    referenceCount += record.references.names.length;
  }
  return {
    files,
    definitions: ranking.definitions,
    totals: { files: records.size, definitions: definitionCount, references: referenceCount, tokens },
  };
}
