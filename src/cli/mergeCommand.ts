import { mergeArtifacts } from '../artifact/mergeArtifacts.js';
import { UsageError } from '../errors.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { exportLine, importLine, summaryLine } from './summaryLines.js';

export async function run(args: ArgsFor<'merge'>): Promise<number> {
  if (args.output === undefined) throw new UsageError("merge needs --output FILE, the artifact to write (see 'repomap merge --help')");
  const timer = new StageTimer();
  const { imported, exported } = await mergeArtifacts({ ...indexOptionsFrom(args), parts: args.parts, artifact: args.output, timer });
  process.stderr.write(`${importLine(imported)}\n${summaryLine(exported.index)}\n${exportLine(exported)}\n`);
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify({ imported, exported })}\n`);
  return 0;
}
