import { codeSpan, oneLine } from './formatKit.js';
import type { OutlineFormat, OutlineItem } from './outlineText.js';
import { definitionText, moreText, outlineItems } from './outlineText.js';
import { escapeXml } from './xmlFormat.js';

/**
 * The outline's formats other than text (registered in formats.ts), each walking the same items
 * (outlineItems) and keeping OutlineFormat's rule: every line non-empty, no CR or LF in one.
 */

/** The text format with one space a level, and each definition as `signature :LINE`, after a legend line. */
export const COMPACT_OUTLINE: OutlineFormat = {
  lines(tree) {
    const lines = ['# outline: folders end in /, one space a level, a definition as its signature :line'];
    for (const item of outlineItems(tree)) {
      const indent = ' '.repeat(item.depth);
      switch (item.type) {
        case 'folder':
          lines.push(`${indent}${oneLine(item.name)}/`);
          break;
        case 'file':
          lines.push(`${indent}${oneLine(item.name)}`);
          break;
        case 'definition': {
          const { signature, name, line, doc } = item.definition;
          lines.push(`${indent}${oneLine(signature || name)} :${line}${doc ? ` — ${oneLine(doc)}` : ''}`);
          break;
        }
        case 'more':
          lines.push(`${indent}${moreText(item)}`);
      }
    }
    return lines;
  },
};

/** A nested Markdown list: names and definitions as code spans (so `_` or `*` in them formats nothing), counts as plain text. */
export const MARKDOWN_OUTLINE: OutlineFormat = {
  lines: (tree) => outlineItems(tree).map(markdownLine),
};

function markdownLine(item: OutlineItem): string {
  const bullet = `${'  '.repeat(item.depth)}- `;
  switch (item.type) {
    case 'folder':
      return `${bullet}${codeSpan(`${oneLine(item.name)}/`)}`;
    case 'file':
      return `${bullet}${codeSpan(oneLine(item.name))}`;
    case 'definition': {
      const { doc } = item.definition;
      return `${bullet}${codeSpan(definitionText({ ...item.definition, doc: '' }))}${doc ? ` — ${oneLine(doc)}` : ''}`;
    }
    case 'more':
      return `${bullet}${moreText(item)}`;
  }
}

/**
 * XML: `<outline path="…">`, then `<folder path="…">`, `<file path="…" language="…">`,
 * `<definition line kind name signature doc>` (each closed around what it holds, or empty), and
 * `<more files="N"/>` or `<more definitions="N"/>`, indented two spaces a level; `</outline>`.
 */
export const XML_OUTLINE: OutlineFormat = {
  lines(tree) {
    const lines = [`<outline path="${attribute(tree.path)}">`];
    const open: { depth: number; tag: string }[] = [];
    const items = outlineItems(tree);
    for (const [at, item] of items.entries()) {
      for (let last = open.at(-1); last && last.depth >= item.depth; last = open.at(-1)) {
        lines.push(`${indentOf(last.depth)}</${last.tag}>`);
        open.pop();
      }
      const holds = (items[at + 1]?.depth ?? -1) > item.depth;
      const [tag, attributes] = element(item);
      lines.push(`${indentOf(item.depth)}<${tag}${attributes}${holds ? '' : '/'}>`);
      if (holds) open.push({ depth: item.depth, tag });
    }
    for (const last of open.reverse()) lines.push(`${indentOf(last.depth)}</${last.tag}>`);
    lines.push('</outline>');
    return lines;
  },
};

function element(item: OutlineItem): [tag: string, attributes: string] {
  switch (item.type) {
    case 'folder':
      return ['folder', ` path="${attribute(item.path)}"`];
    case 'file':
      return ['file', ` path="${attribute(item.file.path)}"${item.file.language ? ` language="${item.file.language}"` : ''}`];
    case 'definition': {
      const { line, kind, name, signature, doc } = item.definition;
      const docAttribute = doc ? ` doc="${attribute(doc)}"` : '';
      return ['definition', ` line="${line}" kind="${attribute(kind)}" name="${attribute(name)}" signature="${attribute(signature)}"${docAttribute}`];
    }
    case 'more':
      return ['more', ` ${item.of}="${item.count}"`];
  }
}

function indentOf(depth: number): string {
  return '  '.repeat(depth + 1);
}

/** An attribute's value: escaped, and on one line (a `\r` as a reference, other controls as `\xNN`). */
function attribute(text: string): string {
  return escapeXml(oneLine(text), true);
}
