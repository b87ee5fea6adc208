import { NothingFoundError } from '../errors.js';
import { type FindHit, type FindResult, findName } from '../navigate/find.js';
import { withRepoView } from '../navigate/repoView.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { oneLine, sourceLine } from './stderrLine.js';

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

/** One line per result; with context, grep's `path-line-` lines around it and `--` between results. */
export function findText(result: FindResult, withContext: boolean): string {
  const out: string[] = [];
  for (const hit of [...result.definitions, ...result.references]) {
    if (withContext && out.length > 0) out.push('--');
    const before = hit.context.filter((line) => line.line < hit.line);
    const after = hit.context.filter((line) => line.line > hit.line);
    for (const line of before) out.push(contextLine(hit, line));
    out.push(`${oneLine(hit.path)}:${hit.line}: ${hit.role} ${hit.kind}: ${sourceLine(hit.text.trimEnd())}`);
    for (const line of after) out.push(contextLine(hit, line));
  }
  if (result.omitted > 0) out.push(`… ${result.omitted} more (raise --limit)`);
  return `${out.join('\n')}\n`;
}

function contextLine(hit: FindHit, { line, text }: { line: number; text: string }): string {
  return `${oneLine(hit.path)}-${line}- ${sourceLine(text.trimEnd())}`;
}

function nothingFound(result: FindResult, args: ArgsFor<'find'>): string {
  const what = args.kind === 'def' ? 'no definition of' : args.kind === 'ref' ? 'no reference to' : 'no definition or reference of';
  const where = args.in && args.in.length > 0 ? ` in ${args.in.join(', ')}` : '';
  const closest = result.closest.length > 0 ? `; closest defined names: ${result.closest.join(', ')}` : '; no defined name is close to it';
  return `${what} '${result.query}'${where}${closest}`;
}
