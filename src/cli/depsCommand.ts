import { NothingFoundError } from '../errors.js';
import { type DepLink, type DepsResult, fileDeps } from '../navigate/deps.js';
import { withRepoView } from '../navigate/repoView.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { oneLine } from './stderrLine.js';

/** How many crossing names a text line shows: the JSON has them all. */
const SHOWN_NAMES = 12;

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

/**
 * A line per linked file. deps: `path  ← importer:line module  names: …` (the importer is FILE,
 * or past depth 1 the file it was reached through); refs: `path:line module  names: …` (the
 * import is the linked file's own). Past depth 1, `via` the files between; name-only links
 * under their own heading.
 */
export function depsText(result: DepsResult): string {
  const out = result.links.map((link) => linkLine(result, link));
  if (result.nameLinks.length > 0) {
    out.push('name-only links (no import):');
    for (const link of result.nameLinks) out.push(`${oneLine(link.path)}  names: ${names(link.names)}`);
  }
  return `${out.join('\n')}\n`;
}

function linkLine(result: DepsResult, link: DepLink): string {
  const via = link.depth > 1 ? `  via ${link.via.slice(1).map(oneLine).join(' → ')}` : '';
  if (result.direction === 'importers') {
    const where = link.imports.map((entry) => `${oneLine(link.path)}:${entry.line} ${oneLine(entry.module)}`).join(', ');
    return `${where}  names: ${names(link.names)}${via}`;
  }
  const importer = oneLine(link.via.at(-1)!);
  const where = link.imports.map((entry) => `${importer}:${entry.line} ${oneLine(entry.module)}`).join(', ');
  return `${oneLine(link.path)}  ← ${where}  names: ${names(link.names)}${via}`;
}

function names(list: readonly string[]): string {
  if (list.length === 0) return '-';
  const shown = list.slice(0, SHOWN_NAMES).map(oneLine).join(', ');
  return list.length > SHOWN_NAMES ? `${shown} … ${list.length - SHOWN_NAMES} more` : shown;
}
