import { type IndexSummary, indexRepository } from '../indexing/indexRepository.js';
import { StageTimer } from '../stageTimer.js';
import { type CommonArgs, indexOptionsFrom } from './commonOptions.js';
import { progressBar } from './progressBar.js';

export async function runIndexCommand(args: CommonArgs & { json: boolean }): Promise<number> {
  const bar = progressBar('indexing');
  const timer = new StageTimer();
  let summary: IndexSummary;
  try {
    summary = await indexRepository({ ...indexOptionsFrom(args), onProgress: bar.update, timer });
  } finally {
    bar.clear();
  }
  process.stderr.write(`${summaryLine(summary)}\n`);
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) {
    const { files, parsed, reused, removed, skipped, defs, refs, seconds } = summary;
    process.stdout.write(`${JSON.stringify({ files, parsed, reused, removed, skipped, defs, refs, seconds })}\n`);
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
