import { type ExportSummary, exportIndex } from '../artifact/exportIndex.js';
import { UsageError } from '../errors.js';
import type { IndexSummary } from '../indexing/indexRepository.js';
import { warmIndex } from '../map/warmIndex.js';
import { MAX_SHARDS } from '../options/checkOptions.js';
import type { IndexShard } from '../options/libraryOptions.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { progressBar } from './progressBar.js';
import { exportLine, summaryLine } from './summaryLines.js';

export async function run(args: ArgsFor<'index'>): Promise<number> {
  // Both print on stdout, and the JSON already holds the list.
  if (args.json && args.listSkipped) throw new UsageError('--json and --list-skipped cannot be combined: the JSON holds skippedFiles');
  const bar = progressBar('indexing');
  const timer = new StageTimer();
  const options = { ...indexOptionsFrom(args), shard: args.shard === undefined ? undefined : shardOf(args.shard), onProgress: bar.update, timer };
  let summary: IndexSummary;
  let exported: ExportSummary | undefined;
  try {
    if (args.export === undefined) summary = await warmIndex(options);
    else {
      exported = await exportIndex({ ...options, artifact: args.export });
      summary = exported.index;
    }
  } finally {
    bar.clear();
  }
  process.stderr.write(`${summaryLine(summary)}\n`);
  if (exported) process.stderr.write(`${exportLine(exported)}\n`);
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

/** `K/N` as a shard: part K of N. */
function shardOf(value: string): IndexShard {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(value);
  const [part, of] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (part < 1 || of < 1 || part > of || of > MAX_SHARDS) throw new UsageError(`--shard must be K/N with 1 <= K <= N <= ${MAX_SHARDS}, not '${value}'`);
  return { part, of };
}
