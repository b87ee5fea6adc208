import type Parser from 'tree-sitter';
import type { Deadline } from './deadline.js';

/**
 * The import entries of a Rust `use` declaration or body-less `mod x;` item, one full path per
 * leaf of the use tree: `use crate::a::{b::C, d as e, self, *}` → `crate::a::b::C`,
 * `crate::a::d`, `crate::a`, `crate::a::*`; `mod x;` → `self::x`. Paths inside inline modules
 * (`mod tests { use super::*; }`) are rewritten relative to the file's own module, so that
 * `self::` and `super::` mean the same in every entry of a file.
 */
export function rustImportPaths(node: Parser.SyntaxNode, deadline: Deadline): string[] {
  if (node.type === 'mod_item') {
    const name = node.childForFieldName('name');
    return name ? [['self', ...inlineModulesAround(node, deadline), name.text].join('::')] : [];
  }
  const argument = node.childForFieldName('argument');
  if (!argument) return [];
  const paths: string[] = [];
  // The tree read from its text: one crossing into tree-sitter instead of one per node.
  const tree = argument.text
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/\s+as\s+[\w$#]+/g, '')
    .replace(/\s+/g, '');
  flattenList(tree, 0, '', paths);
  if (!paths.some((path) => path.startsWith('self') || path.startsWith('super'))) return paths;
  const inline = inlineModulesAround(node, deadline);
  return inline.length === 0 ? paths : paths.map((path) => relativeToFile(path, inline));
}

/** Reads the comma-separated items of a use list from `at` to its `}` (or the end); returns the index after it. */
function flattenList(tree: string, at: number, prefix: string, out: string[]): number {
  let start = at;
  for (;;) {
    let end = start;
    while (end < tree.length && tree[end] !== '{' && tree[end] !== ',' && tree[end] !== '}') end++;
    const path = tree.slice(start, end);
    if (tree[end] === '{') {
      end = flattenList(tree, end + 1, joinPath(prefix, path.endsWith('::') ? path.slice(0, -2) : path), out);
    } else if (path === 'self') {
      // `{self, …}` names the list's own prefix.
      out.push(prefix || 'self');
    } else if (path !== '') {
      out.push(joinPath(prefix, path));
    }
    if (tree[end] !== ',') return tree[end] === '}' ? end + 1 : end;
    start = end + 1;
  }
}

function joinPath(prefix: string, path: string): string {
  if (prefix === '') return path;
  return path === '' ? prefix : `${prefix}::${path}`;
}

/**
 * The names of the inline modules (`mod m { … }`) that enclose `node`, outermost first. Each
 * step up costs tree-sitter the depth of the node, so deep nesting makes this quadratic.
 */
function inlineModulesAround(node: Parser.SyntaxNode, deadline: Deadline): string[] {
  const names: string[] = [];
  for (let at = node.parent; at; at = at.parent) {
    deadline.check();
    if (at.type !== 'mod_item') continue;
    const name = at.childForFieldName('name');
    if (name) names.unshift(name.text);
  }
  return names;
}

/** `self::x` and `super::x` written inside inline modules `inline`, as seen from the file's module. */
function relativeToFile(path: string, inline: readonly string[]): string {
  const segments = path.split('::');
  if (segments[0] === 'self') return ['self', ...inline, ...segments.slice(1)].join('::');
  if (segments[0] !== 'super') return path;
  let supers = 0;
  while (segments[supers] === 'super') supers++;
  const rest = segments.slice(supers);
  if (supers <= inline.length) return ['self', ...inline.slice(0, inline.length - supers), ...rest].join('::');
  return [...Array<string>(supers - inline.length).fill('super'), ...rest].join('::');
}
