import type Parser from 'tree-sitter';
import { CursorNames } from './cursorNames.js';
import type { Deadline } from './deadline.js';
import type { LineTable } from './lineTable.js';

/** Most lines shown of one head (grep-ast's cap on a header); a definition's name line is shown whatever its place. */
const MAX_HEAD_LINES = 10;
const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);
/** Object literals holding methods (`module.exports = {`, prototypes): their first line heads them. */
const OBJECT_TYPES = new Set(['object']);

/** Where a definition lies, as UTF-16 offsets of the source. */
export interface DefinitionSpan {
  /** Its node, or its name when the query captured no node. */
  start: number;
  end: number;
  /** Its head: decorators included, up to the last token before its body (see headSpanOf). */
  headStart: number;
  headEnd: number;
  /** 0-based row of its name. */
  nameRow: number;
}

/** A node on the path from the root to the current definition. */
interface Ancestor {
  start: number;
  end: number;
  startRow: number;
  /** When the path goes on through its `body`: the last row of its head, up to that body; the first row of an object literal; else −1. */
  headEndRow: number;
  /** The path goes on through its `definition` (Python's decorated_definition). */
  decorates: boolean;
  isObject: boolean;
}

/**
 * The lines the signatures style shows with each definition, 1-based ascending: the heads of
 * the nodes whose body encloses it (class, impl, trait, module, namespace, outer function:
 * from their first line to the last before their body) and the first lines of the object
 * literals that hold it, then its own head. One cursor walks
 * down to each definition from where the previous one left it, so a file costs about one walk.
 */
export function signatureLinesOf(tree: Parser.Tree, rows: LineTable, spans: readonly DefinitionSpan[], deadline: Deadline): number[][] {
  const cursor = tree.walk();
  const names = new CursorNames();
  const root = tree.rootNode;
  const path: Ancestor[] = [
    { start: root.startIndex, end: root.endIndex, startRow: rows.rowOf(root.startIndex), headEndRow: -1, decorates: false, isObject: false },
  ];
  const shown = new ShownLines();
  return spans.map((span) => {
    while (path.length > 1 && !(path.at(-1)!.start <= span.start && span.end <= path.at(-1)!.end)) {
      deadline.step();
      path.pop();
      cursor.gotoParent();
    }
    descendTo(cursor, names, rows, path, span, deadline);

    const parent = path.at(-2);
    const ownStartRow = parent?.decorates ? parent.startRow : rows.rowOf(span.headStart);
    for (let i = 0; i < path.length - 1; i++) {
      deadline.step();
      const ancestor = path[i]!;
      if (ancestor.headEndRow >= 0 && ancestor.startRow < ownStartRow) shown.addRows(ancestor.startRow, ancestor.headEndRow);
    }
    shown.addRows(ownStartRow, Math.max(rows.rowOf(Math.max(span.headEnd - 1, span.headStart)), span.nameRow));
    shown.add(span.nameRow + 1);
    return shown.take();
  });
}

/**
 * The 1-based lines shown with one definition, gathered in a typed array kept for the file and
 * sorted natively: a Set, its spread and a sort with a comparator per definition cost more than
 * the walk that finds the lines.
 */
class ShownLines {
  private lines = new Int32Array(64);
  private count = 0;

  add(line: number): void {
    if (this.count === this.lines.length) {
      const grown = new Int32Array(this.count * 2);
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[this.count++] = line;
  }

  /** Rows `from..to` (0-based, inclusive) as 1-based lines, at most MAX_HEAD_LINES of them. */
  addRows(from: number, to: number): void {
    for (let row = from; row <= Math.min(to, from + MAX_HEAD_LINES - 1); row++) this.add(row + 1);
  }

  /** The lines added since the last take, ascending, each once; empties the collection. */
  take(): number[] {
    const sorted = this.lines.subarray(0, this.count).sort();
    const lines: number[] = [];
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) lines.push(sorted[i]!);
    this.count = 0;
    return lines;
  }
}

/** Moves the cursor down to the span's node, pushing each node passed on the way. */
function descendTo(cursor: Parser.TreeCursor, names: CursorNames, rows: LineTable, path: Ancestor[], span: DefinitionSpan, deadline: Deadline): void {
  for (let top = path.at(-1)!; top.start !== span.start || top.end !== span.end; top = path.at(-1)!) {
    deadline.step();
    // The binding answers the child's index, or null (and the cursor stays) when no child reaches that far.
    const moved: unknown = cursor.gotoFirstChildForIndex(span.start);
    if (moved === null || moved === false) return;
    const start = cursor.startIndex;
    const end = cursor.endIndex;
    if (start > span.start || end < span.end) {
      cursor.gotoParent();
      return;
    }
    const field = names.fieldOf(cursor);
    top.decorates = field === 'definition';
    if (field === 'body') top.headEndRow = rows.rowOf(Math.max(headEndBefore(cursor, names, start, deadline) - 1, top.start));
    else top.headEndRow = top.isObject ? top.startRow : -1;
    const isObject = OBJECT_TYPES.has(names.typeName(names.typeIdOf(cursor)));
    path.push({ start, end, startRow: rows.rowOf(start), headEndRow: -1, decorates: false, isObject });
  }
}

/** The end of the last sibling before the cursor's node that is not a comment (the node's start when there is none); the cursor comes back. */
function headEndBefore(cursor: Parser.TreeCursor, names: CursorNames, bodyStart: number, deadline: Deadline): number {
  let end = bodyStart + 1;
  let steps = 0;
  while (cursor.gotoPreviousSibling()) {
    deadline.step();
    steps++;
    if (!COMMENT_TYPES.has(names.typeName(names.typeIdOf(cursor)))) {
      end = cursor.endIndex;
      break;
    }
  }
  for (; steps > 0; steps--) cursor.gotoNextSibling();
  return end;
}
