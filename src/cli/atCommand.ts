import { type AtAnswer, type AtDefinition, at, parsePosition } from '../navigate/at.js';
import { withRepoView } from '../navigate/repoView.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { writeStderrLine } from './stderrLine.js';

/** `repomap at FILE:LINE[:COL]...`: exit 2 when a position has no identifier. */
export async function run(args: ArgsFor<'at'>): Promise<number> {
  // A malformed position is an error before the index is opened.
  const positions = args.positions.map(parsePosition);
  const result = await withRepoView(indexOptionsFrom(args), (view) => at(view, positions, { maxReferences: args.maxReferences }));
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : result.positions.map(textOf).join(''));
  const empty = result.positions.filter((answer) => answer.identifier === null);
  for (const answer of empty) writeStderrLine(`no identifier at ${answer.path}:${answer.line}${answer.column > 1 ? `:${answer.column}` : ''}`);
  return empty.length > 0 ? 2 : 0;
}

function textOf(answer: AtAnswer): string {
  if (answer.identifier === null) return '';
  const lines = [`${answer.path}:${answer.line}:${answer.column} ${answer.identifier}`];
  if (answer.definitions.length === 0) lines.push('  no definition in the repository');
  else if (answer.ambiguous) lines.push(`  ${answer.definitions.length} definitions (${answer.definitions[0]!.how}), ranked:`);
  for (const definition of answer.definitions) lines.push(`  ${definitionLine(definition)}`);
  if (answer.hover) lines.push(`  hover: ${answer.hover.replace('\n', ' · ')}`);
  const shown = answer.references.map(({ path, line }) => `${path}:${line}`);
  const more = answer.referenceFiles > 0 ? ` (in ${answer.referenceFiles} file${answer.referenceFiles === 1 ? '' : 's'})` : '';
  lines.push(`  references${more}: ${shown.length > 0 ? shown.join(' ') : 'none listed'}`);
  return `${lines.join('\n')}\n`;
}

function definitionLine({ path, line, column, kind, how, signature }: AtDefinition): string {
  return `${path}:${line}:${column} ${kind} [${how}] ${signature}`;
}
