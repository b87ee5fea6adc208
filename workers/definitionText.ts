import type Parser from 'tree-sitter';
import type { Language } from '../src/record/fileRecord.js';
import type { LineTable } from './lineTable.js';

const MAX_SIGNATURE = 200;
const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);
/** What may stand between a doc comment and its definition. */
const DECORATOR_TYPES = new Set(['decorator', 'attribute_item', 'annotation', 'marker_annotation']);
/** Where a definition without a body of its own keeps one: `const f = () => {…}`, `x.f = function …`. */
const VALUE_FIELDS = ['value', 'right'];

/**
 * The definition's head: its text from after its decorators up to its body (or its first line
 * when it has none), whitespace collapsed, at most 200 characters.
 */
export function signatureOf(definitionNode: Parser.SyntaxNode | null, nameLine: string): string {
  if (!definitionNode) return collapse(nameLine);
  // Go's `type X struct` keeps its keyword on the declaration around the spec.
  const parent = definitionNode.parent;
  if (parent?.type === 'type_declaration' && parent.startPosition.row === definitionNode.startPosition.row) {
    definitionNode = parent;
  }
  const text = definitionNode.text;
  const base = definitionNode.startIndex;
  let start = 0;
  for (const child of definitionNode.children) {
    if (!DECORATOR_TYPES.has(child.type)) break;
    start = child.endIndex - base;
  }
  const body = definitionNode.type === 'type_declaration' ? null : bodyOf(definitionNode, 0);
  let end = -1;
  if (body) {
    // Up to the last token before the body, so a comment after `class A:` stays out.
    for (const child of definitionNode.children) {
      if (child.startIndex >= body.startIndex) break;
      if (!COMMENT_TYPES.has(child.type)) end = child.endIndex - base;
    }
    if (body.parent?.id !== definitionNode.id) end = body.startIndex - base;
  }
  if (end <= start) {
    const newline = text.indexOf('\n', start);
    end = newline === -1 ? text.length : newline;
  }
  return tidySignature(text.slice(start, end));
}

/** One line, no leading annotations, no dangling `{`, `:`, `(` or `;`, no padding inside parentheses. */
function tidySignature(head: string): string {
  const tidy = collapse(head)
    .replace(/^(@[\w.]+(\([^()]*\))?\s+)+/, '')
    .replace(/\(\s+/g, '(')
    .replace(/,?\s+\)/g, ')')
    .replace(/\s*[:{(;]$/, '');
  return tidy;
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

function collapse(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_SIGNATURE ? collapsed.slice(0, MAX_SIGNATURE) : collapsed;
}

/** First line of the docstring (Python) or of the comment block right above the definition. */
export function docCommentOf(definitionNode: Parser.SyntaxNode, language: Language, lines: LineTable): string {
  if (language === 'python') return pythonDocstring(definitionNode);
  // The comment sits before the outermost node that starts where the definition does
  // (`export function`, Go's `type` declaration), above any decorators or attributes.
  let outer = definitionNode;
  let top = outer;
  let before: Parser.SyntaxNode | null;
  for (;;) {
    before = outer.previousNamedSibling;
    while (before && DECORATOR_TYPES.has(before.type)) {
      top = before;
      before = before.previousNamedSibling;
    }
    const parent = outer.parent;
    if (!parent?.parent) break;
    if (parent.startPosition.row !== outer.startPosition.row && before !== null) break;
    outer = parent;
    if (outer.startIndex < top.startIndex) top = outer;
  }
  let comment = before;
  if (!isOuterComment(comment) || comment.endPosition.row < top.startPosition.row - 1) return '';
  // `int x = 1; // counter` documents the line it ends, not what follows.
  const { row, column } = comment.startPosition;
  if (lines.lineText(row).slice(0, column).trim() !== '') return '';
  // A run of line comments is one block: take its first line.
  for (;;) {
    const earlier: Parser.SyntaxNode | null = comment.previousNamedSibling;
    if (!isOuterComment(earlier) || earlier.endPosition.row < comment.startPosition.row - 1) break;
    comment = earlier;
  }
  return firstCommentLine(comment.text);
}

/** A comment that may document what follows: not Rust's inner `//!` and `/*!` docs of the module. */
function isOuterComment(node: Parser.SyntaxNode | null): node is Parser.SyntaxNode {
  if (!node || !COMMENT_TYPES.has(node.type)) return false;
  return !(node.type !== 'comment' && /^\/[/*]!/.test(node.text));
}

function pythonDocstring(definitionNode: Parser.SyntaxNode): string {
  const first = definitionNode.childForFieldName('body')?.firstNamedChild;
  const string = first?.type === 'expression_statement' ? first.firstNamedChild : null;
  if (!string || string.type !== 'string') return '';
  const text = string.text.replace(/^[rRbBuUfF]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  return firstMeaningfulLine(text);
}

function firstCommentLine(text: string): string {
  return firstMeaningfulLine(
    text
      .split('\n')
      .map((line) => line.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/[\/!]?|#)\s?/, '').replace(/\s*\*\/\s*$/, ''))
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
