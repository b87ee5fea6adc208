import type Parser from 'tree-sitter';
import type { Language } from '../src/record/fileRecord.js';

const MAX_SIGNATURE = 200;
const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);

/**
 * The definition's head: its text up to its body (or its first line when it has no body field),
 * whitespace collapsed, at most 200 characters.
 */
export function signatureOf(definitionNode: Parser.SyntaxNode | null, nameLine: string): string {
  if (!definitionNode) return collapse(nameLine);
  const body = definitionNode.childForFieldName('body');
  let head: string;
  if (body && body.startIndex > definitionNode.startIndex) {
    head = definitionNode.text.slice(0, body.startIndex - definitionNode.startIndex);
  } else {
    const text = definitionNode.text;
    const newline = text.indexOf('\n');
    head = newline === -1 ? text : text.slice(0, newline);
  }
  return collapse(head).replace(/\s*[:{]$/, '');
}

function collapse(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_SIGNATURE ? collapsed.slice(0, MAX_SIGNATURE) : collapsed;
}

/** First line of the docstring (Python) or of the comment block right above the definition. */
export function docCommentOf(definitionNode: Parser.SyntaxNode, language: Language): string {
  if (language === 'python') return pythonDocstring(definitionNode);
  // The comment sits before the outermost node starting where the definition does
  // (`export function`, Go's `type` declaration, a decorated or annotated form).
  let outer = definitionNode;
  const row = definitionNode.startPosition.row;
  while (outer.parent && outer.parent.parent && outer.parent.startPosition.row === row) outer = outer.parent;
  let comment = outer.previousNamedSibling;
  if (!comment || !COMMENT_TYPES.has(comment.type) || comment.endPosition.row < outer.startPosition.row - 1) return '';
  // A run of line comments is one block: take its first line.
  for (;;) {
    const before: Parser.SyntaxNode | null = comment.previousNamedSibling;
    if (!before || !COMMENT_TYPES.has(before.type) || before.endPosition.row < comment.startPosition.row - 1) break;
    comment = before;
  }
  return firstCommentLine(comment.text);
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
