import type Parser from 'tree-sitter';

/**
 * The import entries of a Rust `use` declaration or body-less `mod x;` item, one full path per
 * leaf of the use tree: `use crate::a::{b::C, d as e, self, *}` → `crate::a::b::C`,
 * `crate::a::d`, `crate::a`, `crate::a::*`; `mod x;` → `self::x`. Paths inside inline modules
 * (`mod tests { use super::*; }`) are rewritten relative to the file's own module, so that
 * `self::` and `super::` mean the same in every entry of a file.
 */
export function rustImportPaths(node: Parser.SyntaxNode): string[] {
  const inline = inlineModulesAround(node);
  if (node.type === 'mod_item') {
    const name = node.childForFieldName('name');
    return name ? [['self', ...inline, name.text].join('::')] : [];
  }
  const argument = node.childForFieldName('argument');
  if (!argument) return [];
  const paths: string[] = [];
  flatten(argument, '', paths);
  return inline.length === 0 ? paths : paths.map((path) => relativeToFile(path, inline));
}

function flatten(node: Parser.SyntaxNode, prefix: string, out: string[]): void {
  switch (node.type) {
    case 'use_as_clause': {
      const path = node.childForFieldName('path');
      if (path) flatten(path, prefix, out);
      return;
    }
    case 'use_wildcard': {
      const path = node.namedChild(0);
      out.push(`${path ? joinPath(prefix, pathText(path)) : prefix}::*`);
      return;
    }
    case 'scoped_use_list': {
      const path = node.childForFieldName('path');
      const list = node.childForFieldName('list');
      if (list) flatten(list, path ? joinPath(prefix, pathText(path)) : prefix, out);
      return;
    }
    case 'use_list':
      for (const child of node.namedChildren) flatten(child, prefix, out);
      return;
    case 'self':
      // `{self, …}` names the list's own prefix.
      out.push(prefix || 'self');
      return;
    case 'line_comment':
    case 'block_comment':
      return;
    default:
      out.push(joinPath(prefix, pathText(node)));
  }
}

function joinPath(prefix: string, path: string): string {
  return prefix === '' ? path : `${prefix}::${path}`;
}

/** A path as written, without the whitespace and comments a path may hold. */
function pathText(node: Parser.SyntaxNode): string {
  return node.text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|\s+/g, '');
}

/** The names of the inline modules (`mod m { … }`) that enclose `node`, outermost first. */
function inlineModulesAround(node: Parser.SyntaxNode): string[] {
  const names: string[] = [];
  for (let at = node.parent; at; at = at.parent) {
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
