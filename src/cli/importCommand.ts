import { importIndex } from '../artifact/importIndex.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

export async function run(args: ArgsFor<'import'>): Promise<number> {
  const timer = new StageTimer();
  const summary = await importIndex({ ...indexOptionsFrom(args), artifact: args.artifact, timer });
  const { records, imported, changed, absent, missing, derived, seconds } = summary;
  process.stderr.write(
    `repomap: imported ${imported} of the artifact's ${records} records${derived ? ' and its derived tables' : ''}; left out: ${changed} records of files ` +
      `changed since, ${absent} of files not in this tree; ${missing} files have no record (the next run parses them); in ${seconds.toFixed(2)} s\n`,
  );
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return 0;
}
