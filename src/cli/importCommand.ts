import { importIndex } from '../artifact/importIndex.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { importLine } from './summaryLines.js';

export async function run(args: ArgsFor<'import'>): Promise<number> {
  const timer = new StageTimer();
  const summary = await importIndex({ ...indexOptionsFrom(args), artifact: args.artifact, timer });
  process.stderr.write(`${importLine(summary)}\n`);
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return 0;
}
