import { NothingFoundError } from '../errors.js';
import { fileDeps } from '../navigate/deps.js';
import { withRepoView } from '../navigate/repoView.js';
import { depsText } from '../render/navigationText.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

/** `repomap deps FILE`: the files FILE imports. */
export function runDeps(args: ArgsFor<'deps'>): Promise<number> {
  return runLinks('deps', args);
}

/** `repomap refs FILE`: the files that import FILE. */
export function runRefs(args: ArgsFor<'refs'>): Promise<number> {
  return runLinks('refs', args);
}

/** A line per linked file, or the DepsResult as JSON; exit 2 when there is none. */
async function runLinks(command: 'deps' | 'refs', args: ArgsFor<'deps'>): Promise<number> {
  const { file } = args;
  const timer = new StageTimer();
  const result = await withRepoView({ ...indexOptionsFrom(args), timer }, (view) =>
    fileDeps(view, { file, direction: command === 'deps' ? 'imports' : 'importers', depth: args.depth, nameLinks: args.nameLinks }),
  );
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (result.links.length + result.nameLinks.length > 0) process.stdout.write(depsText(result));
  if (result.links.length + result.nameLinks.length === 0) {
    const none = command === 'deps' ? `${result.file} imports no file of the repository` : `no file of the repository imports ${result.file}`;
    throw new NothingFoundError(args.nameLinks ? `${none}, and none shares a name with it` : `${none} (--name-links lists files that share names with it)`);
  }
  return 0;
}
