/** The one-line summaries commands print on stderr. */
import type { ExportSummary } from '../artifact/exportIndex.js';
import type { ImportSummary } from '../artifact/importIndex.js';
import type { IndexSummary } from '../indexing/indexRepository.js';

export function summaryLine(summary: IndexSummary): string {
  const reasons = Object.entries(summary.skipped)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([reason, count]) => `${reason} ${count}`);
  const skippedTotal = Object.values(summary.skipped).reduce((sum, count) => sum + (count ?? 0), 0);
  return (
    `repomap: ${summary.files} files: ${summary.parsed} parsed, ${summary.reused} reused, ` +
    `${summary.removed} removed, ${skippedTotal} skipped${reasons.length ? ` (${reasons.join(', ')})` : ''}; ` +
    `${summary.defs} defs, ${summary.refs} refs in ${summary.seconds.toFixed(2)} s`
  );
}

export function exportLine({ artifact, records, tokenCounts, derived, bytes, seconds }: ExportSummary): string {
  const size = `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `repomap: exported ${records} records, ${tokenCounts} token counts and ${derived} derived values to ${artifact} (${size}) in ${seconds.toFixed(2)} s`;
}

export function importLine({ artifacts, records, imported, changed, absent, missing, derived, seconds }: ImportSummary): string {
  const from = artifacts.length === 1 ? "the artifact's" : `${artifacts.length} artifacts'`;
  return (
    `repomap: imported ${imported} of ${from} ${records} records${derived ? ' and the derived tables' : ''}; left out: ${changed} records of files ` +
    `changed since, ${absent} of files not in this tree; ${missing} files have no record (the next run parses them); in ${seconds.toFixed(2)} s`
  );
}
