import type Parser from 'tree-sitter';
import type { Language } from '../src/record/fileRecord.js';
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
 * node texts: every tree-sitter call crosses into native code, and a file can define thousands.
 */
export function headSpanOf(definitionNode: Parser.SyntaxNode, source: string, language: Language): HeadSpan {
  const node = language === 'go' ? goTypeDeclaration(definitionNode) : definitionNode;
  const children = node.children;
  let start = node.startIndex;
  for (const child of children) {
    if (!DECORATOR_TYPES.has(child.type)) break;
    start = child.endIndex;
  }
  const body = node.type === 'type_declaration' ? null : bodyOf(node, 0);
  let end = -1;
  if (body) {
    const bodyStart = body.startIndex;
    let bodyIsChild = false;
    // Up to the last token before the body, so a comment after `class A:` stays out.
    for (const child of children) {
      const childStart = child.startIndex;
      if (childStart >= bodyStart) {
        bodyIsChild = childStart === bodyStart;
        break;
      }
      if (!COMMENT_TYPES.has(child.type)) end = child.endIndex;
    }
    if (!bodyIsChild) end = bodyStart;
  }
  if (end <= start) {
    const newline = source.indexOf('\n', start);
    end = Math.min(newline === -1 ? source.length : newline, node.endIndex);
  }
  // A body on the next line (`=>` then an expression) leaves the line break in the head.
  while (end > start && isSpace(source.charCodeAt(end - 1))) end--;
  return { start: node.startIndex, afterDecorators: start, end };
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

function bodyOf(node: Parser.SyntaxNode, depth: number): Parser.SyntaxNode | null {
  const body = node.childForFieldName('body');
  if (body || depth === 3) return body;
  for (const field of VALUE_FIELDS) {
    const value = node.childForFieldName(field);
    if (value) return bodyOf(value, depth + 1);
  }
  for (const child of node.namedChildren) {
    if (child.type.endsWith('declarator')) return bodyOf(child, depth + 1);
  }
  return null;
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
