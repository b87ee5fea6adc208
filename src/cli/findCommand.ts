import { NothingFoundError } from '../errors.js';
import { type FindResult, findName } from '../navigate/find.js';
import { withRepoView } from '../navigate/repoView.js';
import { findText } from '../render/navigationText.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

/** `repomap find NAME`: grep's lines (`path:line: def class: text`), or the FindResult as JSON; exit 2 when nothing matches. */
export async function run(args: ArgsFor<'find'>): Promise<number> {
  const { name } = args;
  const timer = new StageTimer();
  const result = await withRepoView({ ...indexOptionsFrom(args), timer }, (view) =>
    findName(view, { name, kind: args.kind, in: args.in, context: args.context, limit: args.limit }),
  );
  if (args.verbose) process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (result.definitions.length + result.references.length > 0) process.stdout.write(findText(result, args.context > 0));
  if (result.totals.definitions + result.totals.references === 0) throw new NothingFoundError(nothingFound(result, args));
  return 0;
}

function nothingFound(result: FindResult, args: ArgsFor<'find'>): string {
  const what = args.kind === 'def' ? 'no definition of' : args.kind === 'ref' ? 'no reference to' : 'no definition or reference of';
  const where = args.in && args.in.length > 0 ? ` in ${args.in.join(', ')}` : '';
  const closest = result.closest.length > 0 ? `; closest defined names: ${result.closest.join(', ')}` : '; no defined name is close to it';
  return `${what} '${result.query}'${where}${closest}`;
}
