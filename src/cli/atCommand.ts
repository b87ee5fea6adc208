import { at, parsePosition } from '../navigate/at.js';
import { withRepoView } from '../navigate/repoView.js';
import { atText } from '../render/navigationText.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';
import { writeStderrLine } from './stderrLine.js';

/** `repomap at FILE:LINE[:COL]...`: exit 2 when a position has no identifier. */
export async function run(args: ArgsFor<'at'>): Promise<number> {
  // A malformed position is an error before the index is opened.
  const positions = args.positions.map(parsePosition);
  const result = await withRepoView(indexOptionsFrom(args), (view) => at(view, positions, { maxReferences: args.maxReferences }));
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : result.positions.map(atText).join(''));
  const empty = result.positions.filter((answer) => answer.identifier === null);
  for (const answer of empty) writeStderrLine(`no identifier at ${answer.path}:${answer.line}${answer.column > 1 ? `:${answer.column}` : ''}`);
  return empty.length > 0 ? 2 : 0;
}
