import { exportIndex } from '../artifact/exportIndex.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { summaryLine } from './indexCommand.js';
import { progressBar } from './progressBar.js';

export async function run(args: ArgsFor<'export'>): Promise<number> {
  const bar = progressBar('indexing');
  const timer = new StageTimer();
  let summary: Awaited<ReturnType<typeof exportIndex>>;
  try {
    summary = await exportIndex({ ...indexOptionsFrom(args), artifact: args.artifact, onProgress: bar.update, timer });
  } finally {
    bar.clear();
  }
  const { artifact, records, tokenCounts, derived, bytes, seconds, index } = summary;
  process.stderr.write(`${summaryLine(index)}\n`);
  process.stderr.write(
    `repomap: exported ${records} records, ${tokenCounts} token counts and ${derived} derived values to ${artifact} (${mebibytes(bytes)}) in ${seconds.toFixed(2)} s\n`,
  );
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify({ artifact, bytes, records, tokenCounts, derived, seconds })}\n`);
  return 0;
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
