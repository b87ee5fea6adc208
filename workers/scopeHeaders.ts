import type Parser from 'tree-sitter';
import { lowerBound } from '../src/sortedSearch.js';
import type { Deadline } from './deadline.js';
import type { LineTable } from './lineTable.js';

/** grep-ast shows at most this many lines of a scope's header. */
const HEADER_MAX_LINES = 10;

/**
 * The lines aider's renderer (grep-ast's TreeContext with parent_context on, as aider
 * configures it) shows around each line of interest, computed once at index time.
 *
 * grep-ast walks every node: a node starting on line s and ending on line e > s is a header
 * candidate of s, and s is a scope of every line in s..e. The header of s is the smallest
 * candidate's lines s..e−1 (at most 10) when s has two or more candidates, else line s alone.
 * A line of interest L shows the headers of all its scopes that do not start on line 0.
 *
 * Walking the whole tree costs a fifth of the parse, so we visit only what decides the answer:
 * multi-line nodes touching a line of interest (its scopes), then multi-line nodes touching a
 * scope's first line (its header candidates). Rows come from a newline table, not from
 * tree-sitter points, to keep the walk free of allocation.
 *
 * Lines are 0-based tree-sitter rows here; the result is 1-based.
 */
export function scopeLinesOf(tree: Parser.Tree, rows: LineTable, linesOfInterest: readonly number[], deadline: Deadline): number[][] {
  if (linesOfInterest.length === 0) return [];
  const cursor = tree.walk();

  const interest = sortedUnique(linesOfInterest);
  const covering = collectMultilineNodes(cursor, tree, rows, interest, deadline);
  const scopesByLine = new Map<number, number[]>();
  const scopeStarts = new Set<number>(interest);
  for (const line of interest) scopesByLine.set(line, [line]);
  for (let i = 0; i < covering.length; i += 2) {
    const start = covering[i]!;
    const end = covering[i + 1]!;
    scopeStarts.add(start);
    for (let j = lowerBound(interest, start); j < interest.length && interest[j]! <= end; j++) {
      deadline.step();
      scopesByLine.get(interest[j]!)!.push(start);
    }
  }

  const starts = sortedUnique([...scopeStarts].filter((start) => start > 0));
  const candidates = new Map<number, number>();
  const smallest = new Map<number, number>();
  const onStarts = collectMultilineNodes(cursor, tree, rows, starts, deadline);
  for (let i = 0; i < onStarts.length; i += 2) {
    const start = onStarts[i]!;
    if (start !== starts[lowerBound(starts, start)]) continue;
    const size = onStarts[i + 1]! - start;
    candidates.set(start, (candidates.get(start) ?? 0) + 1);
    const known = smallest.get(start);
    if (known === undefined || size < known) smallest.set(start, size);
  }

  const shownByLine = new Map<number, number[]>();
  for (const [line, scopes] of scopesByLine) {
    const shown = new Set<number>();
    for (const start of scopes) {
      if (start === 0) continue;
      const headerLength = (candidates.get(start) ?? 0) > 1 ? Math.min(smallest.get(start)!, HEADER_MAX_LINES) : 1;
      deadline.step();
      for (let row = start; row < start + headerLength; row++) shown.add(row + 1);
    }
    shownByLine.set(
      line,
      [...shown].sort((a, b) => a - b),
    );
  }
  return linesOfInterest.map((line) => shownByLine.get(line)!);
}

/**
 * Start and end rows (flattened pairs) of every multi-line node whose rows include one of
 * `targets` (sorted). Single-line nodes are not entered: their descendants are single-line too.
 */
function collectMultilineNodes(cursor: Parser.TreeCursor, tree: Parser.Tree, rows: LineTable, targets: number[], deadline: Deadline): number[] {
  const found: number[] = [];
  if (targets.length === 0) return found;
  cursor.reset(tree.rootNode);
  // Each node's start row comes from its parent's loop, which reads it to stop early.
  const visit = (start: number): void => {
    deadline.step();
    const end = rows.rowOf(cursor.endIndex);
    const firstTarget = lowerBound(targets, start);
    if (firstTarget === targets.length || targets[firstTarget]! > end || end === start) return;
    found.push(start, end);
    if (!cursor.gotoFirstChild()) return;
    const lastTarget = targets[upperBound(targets, end) - 1]!;
    do {
      const childStart = rows.rowOf(cursor.startIndex);
      if (childStart > lastTarget) break;
      visit(childStart);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };
  visit(rows.rowOf(cursor.startIndex));
  return found;
}

function sortedUnique(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

function upperBound(sorted: ArrayLike<number>, value: number): number {
  return lowerBound(sorted, value + 1);
}
