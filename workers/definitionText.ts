import type Parser from 'tree-sitter';
import type { Language } from '../src/record/fileRecord.js';
import { CursorNames } from './cursorNames.js';
import type { Deadline } from './deadline.js';
import type { LineTable } from './lineTable.js';

const MAX_SIGNATURE = 200;
const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);
/** What may stand between a doc comment and its definition. */
const DECORATOR_TYPES = new Set(['decorator', 'attribute_item', 'annotation', 'marker_annotation']);
/** Where a definition without a body of its own keeps one: `const f = () => {…}`, `x.f = function …`. */
const VALUE_FIELDS = ['value', 'right'];

/** Where a definition's head lies in the source: from its first character (decorators included), from after its decorators, to its end. */
export interface HeadSpan {
  start: number;
  afterDecorators: number;
  end: number;
}

/** The definition's head from after its decorators (see headSpanOf), whitespace collapsed, at most 200 characters. */
export function signatureOf(head: HeadSpan | null, source: string, nameLine: string): string {
  return head ? tidySignature(source.slice(head.afterDecorators, head.end)) : collapse(nameLine);
}

/**
 * The span of a definition's head: up to the last token before its body, or to the end of its
 * first line after decorators when it has none; no trailing whitespace. Reads positions, not
 * node texts, through one cursor: every tree-sitter call crosses into native code, a node object
 * costs several, and a file can define thousands.
 */
export function headSpanOf(definitionNode: Parser.SyntaxNode, source: string, language: Language, walker: ChildWalker): HeadSpan {
  const node = language === 'go' ? goTypeDeclaration(definitionNode) : definitionNode;
  const nodeStart = node.startIndex;
  const children = walker.childrenOf(node);
  let start = nodeStart;
  for (let i = 0; i < children.count; i++) {
    if (!DECORATOR_TYPES.has(children.types[i]!)) break;
    start = children.ends[i]!;
  }
  const bodyStart = node.type === 'type_declaration' ? -1 : walker.bodyStartBelow(children, 0);
  let end = -1;
  if (bodyStart >= 0) {
    let bodyIsChild = false;
    // Up to the last token before the body, so a comment after `class A:` stays out.
    for (let i = 0; i < children.count; i++) {
      const childStart = children.starts[i]!;
      if (childStart >= bodyStart) {
        bodyIsChild = childStart === bodyStart;
        break;
      }
      if (!COMMENT_TYPES.has(children.types[i]!)) end = children.ends[i]!;
    }
    if (!bodyIsChild) end = bodyStart;
  }
  if (end <= start) {
    const newline = source.indexOf('\n', start);
    end = Math.min(newline === -1 ? source.length : newline, node.endIndex);
  }
  // A body on the next line (`=>` then an expression) leaves the line break in the head.
  while (end > start && isSpace(source.charCodeAt(end - 1))) end--;
  return { start: nodeStart, afterDecorators: start, end };
}

/** The children of one node, as a cursor reads them. */
interface Children {
  count: number;
  types: string[];
  starts: number[];
  ends: number[];
  fields: (string | null)[];
  named: boolean[];
}

/**
 * Reads nodes' children through one tree cursor: a child's type, span and field are a few
 * native calls, where node objects cost an object and a native call per property.
 */
export class ChildWalker {
  private readonly cursor: Parser.TreeCursor;
  private readonly names = new CursorNames();

  constructor(tree: Parser.Tree) {
    this.cursor = tree.walk();
  }

  childrenOf(node: Parser.SyntaxNode): Children {
    this.cursor.reset(node);
    return this.readChildren();
  }

  /**
   * Where the body of the node whose children these are starts, or −1: its `body` field, else
   * the body of its `value` or `right` (`const f = () => {…}`), else of its first declarator,
   * three levels down at most. Moves the cursor down as it goes (childrenOf resets it).
   */
  bodyStartBelow(children: Children, depth: number): number {
    const body = children.fields.indexOf('body');
    if (body >= 0) return children.starts[body]!;
    if (depth === 3) return -1;
    let next = -1;
    for (const field of VALUE_FIELDS) {
      next = children.fields.indexOf(field);
      if (next >= 0) break;
    }
    if (next < 0) {
      for (let i = 0; i < children.count && next < 0; i++) if (children.named[i] && children.types[i]!.endsWith('declarator')) next = i;
    }
    if (next < 0) return -1;
    this.cursor.gotoFirstChild();
    for (let i = 0; i < next; i++) this.cursor.gotoNextSibling();
    return this.bodyStartBelow(this.readChildren(), depth + 1);
  }

  /** The children of the cursor's node; the cursor comes back to it. */
  private readChildren(): Children {
    const cursor = this.cursor;
    const children: Children = { count: 0, types: [], starts: [], ends: [], fields: [], named: [] };
    if (!cursor.gotoFirstChild()) return children;
    do {
      const type = this.names.typeIdOf(cursor);
      children.types.push(this.names.typeName(type));
      children.named.push(this.names.isNamed(type));
      children.starts.push(cursor.startIndex);
      children.ends.push(cursor.endIndex);
      children.fields.push(this.names.fieldOf(cursor));
      children.count++;
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return children;
  }
}

/** Go's `type X struct` keeps its keyword on the declaration around the spec. */
function goTypeDeclaration(node: Parser.SyntaxNode): Parser.SyntaxNode {
  if (node.type !== 'type_spec') return node;
  const parent = node.parent;
  return parent?.type === 'type_declaration' && parent.startPosition.row === node.startPosition.row ? parent : node;
}

/** One line, no leading annotations, no dangling `{`, `:`, `(` or `;`, no padding inside parentheses. */
function tidySignature(head: string): string {
  return collapse(head)
    .replace(/^(@[\w.]+(\([^()]*\))?\s+)+/, '')
    .replace(/\(\s+/g, '(')
    .replace(/,?\s+\)/g, ')')
    .replace(/\s*[:{(;]$/, '');
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function collapse(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_SIGNATURE ? collapsed.slice(0, MAX_SIGNATURE) : collapsed;
}

/**
 * First line of the docstring (Python) or of the comment block right above the definition,
 * above any decorator or attribute lines. Read from the lines, not the tree: tree-sitter finds
 * a node's parent and previous sibling by walking its parent's children, which made this
 * quadratic in the members of a class.
 */
export function docCommentOf(definitionNode: Parser.SyntaxNode, language: Language, lines: LineTable, deadline: Deadline): string {
  if (language === 'python') return pythonDocstring(definitionNode);
  let row = lines.rowOf(definitionNode.startIndex) - 1;
  // Each scan below can cross the whole file, once per definition.
  while (row >= 0 && /^\s*(@|#\[)/.test(lines.lineText(row))) {
    deadline.step();
    row--;
  }
  if (row < 0) return '';
  const last = lines.lineText(row).trim();
  if (last.startsWith('//')) {
    // A run of line comments is one block; Rust's `//!` documents the module, not the item.
    let first = row;
    while (first > 0 && /^\s*\/\//.test(lines.lineText(first - 1))) {
      deadline.step();
      first--;
    }
    while (first <= row && /^\s*\/\/!/.test(lines.lineText(first))) first++;
    return first > row ? '' : firstCommentLine(blockText(lines, first, row));
  }
  if (!last.endsWith('*/')) return '';
  let first = row;
  while (first > 0 && !lines.lineText(first).includes('/*')) {
    deadline.step();
    first--;
  }
  const opening = lines.lineText(first).trim();
  // `x = 1; /* note */` ends a statement; `/*!` documents the module.
  if (!opening.startsWith('/*') || opening.startsWith('/*!')) return '';
  return firstCommentLine(blockText(lines, first, row));
}

function blockText(lines: LineTable, first: number, last: number): string {
  const texts: string[] = [];
  for (let row = first; row <= last; row++) texts.push(lines.lineText(row));
  return texts.join('\n');
}

function pythonDocstring(definitionNode: Parser.SyntaxNode): string {
  const first = definitionNode.childForFieldName('body')?.firstNamedChild;
  const string = first?.type === 'expression_statement' ? first.firstNamedChild : null;
  if (string?.type !== 'string') return '';
  const text = string.text.replace(/^[rRbBuUfF]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  return firstMeaningfulLine(text);
}

function firstCommentLine(text: string): string {
  return firstMeaningfulLine(
    text
      .split('\n')
      .map((line) => line.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/[/!]?|#)\s?/, '').replace(/\s*\*\/\s*$/, ''))
      .join('\n'),
  );
}

function firstMeaningfulLine(text: string): string {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed) return trimmed.length > MAX_SIGNATURE ? trimmed.slice(0, MAX_SIGNATURE) : trimmed;
  }
  return '';
}
