import { type ExportSummary, exportIndex } from '../artifact/exportIndex.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { progressBar } from './progressBar.js';
import { exportLine, summaryLine } from './summaryLines.js';

export async function run(args: ArgsFor<'export'>): Promise<number> {
  const bar = progressBar('indexing');
  const timer = new StageTimer();
  let summary: ExportSummary;
  try {
    summary = await exportIndex({ ...indexOptionsFrom(args), artifact: args.artifact, onProgress: bar.update, timer });
  } finally {
    bar.clear();
  }
  process.stderr.write(`${summaryLine(summary.index)}\n${exportLine(summary)}\n`);
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  const { artifact, bytes, records, tokenCounts, derived, seconds } = summary;
  if (args.json) process.stdout.write(`${JSON.stringify({ artifact, bytes, records, tokenCounts, derived, seconds })}\n`);
  return 0;
}
