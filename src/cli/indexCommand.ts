import { UsageError } from '../errors.js';
import type { IndexSummary } from '../indexing/indexRepository.js';
import { warmIndex } from '../map/warmIndex.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { progressBar } from './progressBar.js';

export async function run(args: ArgsFor<'index'>): Promise<number> {
  // Both print on stdout, and the JSON already holds the list.
  if (args.json && args.listSkipped) throw new UsageError('--json and --list-skipped cannot be combined: the JSON holds skippedFiles');
  const bar = progressBar('indexing');
  const timer = new StageTimer();
  let summary: IndexSummary;
  try {
    summary = await warmIndex({ ...indexOptionsFrom(args), onProgress: bar.update, timer });
  } finally {
    bar.clear();
  }
  process.stderr.write(`${summaryLine(summary)}\n`);
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) {
    const { files, parsed, reused, removed, skipped, skippedFiles, defs, refs, seconds } = summary;
    process.stdout.write(`${JSON.stringify({ files, parsed, reused, removed, skipped, skippedFiles, defs, refs, seconds })}\n`);
  }
  if (args.listSkipped && summary.skippedFiles.length > 0) {
    process.stdout.write(`${summary.skippedFiles.map(({ path, reason }) => `${reason}\t${path}`).join('\n')}\n`);
  }
  return 0;
}

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
