import type { OutlineDefinition, OutlineDetail, OutlineEntry, OutlineFile, OutlineFolder } from '../navigate/outlineTree.js';
import { oneLine } from './formatKit.js';

/**
 * A format of outlines: the shown outline as lines. A rendering is each line followed by a
 * newline, and its cl100k count is exactly the sum of its lines' counts, each with its newline,
 * provided every line is non-empty and holds no CR or LF: cl100k's pre-tokenizer has no
 * lookbehind, and each of its pieces that reaches a newline ends with the newlines it meets,
 * so no piece spans two lines unless an empty line joins their newlines (test/navigate checks
 * this against a whole encode for every format). Budgeted outlines are counted this way.
 */
export interface OutlineFormat {
  lines(tree: OutlineEntry, detail: OutlineDetail): string[];
}

/**
 * One line of an outline as every format walks it, in order: a folder (one holding nothing but
 * one folder joined with it, its `name` then `src/main/java`), a file, a definition, or a count
 * of what is not shown; `depth` is its nesting below the first line's.
 */
export type OutlineItem = { depth: number } & (
  | { type: 'folder'; name: string; path: string }
  | { type: 'file'; name: string; file: OutlineFile }
  | { type: 'definition'; definition: OutlineDefinition }
  | { type: 'more'; count: number; of: 'files' | 'definitions' }
);

/**
 * The items of an outline: the root has no item of its own, another PATH's first item is it
 * (named by its path); each folder's files and folders in path order, then its count of files
 * not shown; each file's definitions, each followed by those it contains, then its count.
 */
export function outlineItems(tree: OutlineEntry): OutlineItem[] {
  const items: OutlineItem[] = [];
  if (tree.type === 'file') addFile(items, tree, tree.path, 0);
  else if (tree.path === '') addFolderBody(items, tree, 0);
  else addFolder(items, tree, '', 0);
  return items;
}

function addFolder(items: OutlineItem[], folder: OutlineFolder, parentPath: string, depth: number): void {
  let shown = folder;
  for (let only = shown.entries[0]; shown.moreFiles === 0 && shown.entries.length === 1 && only?.type === 'folder'; only = shown.entries[0]) shown = only;
  items.push({ type: 'folder', depth, name: nameUnder(shown.path, parentPath), path: shown.path });
  addFolderBody(items, shown, depth + 1);
}

function addFolderBody(items: OutlineItem[], folder: OutlineFolder, depth: number): void {
  for (const entry of folder.entries) {
    if (entry.type === 'folder') addFolder(items, entry, folder.path, depth);
    else addFile(items, entry, nameUnder(entry.path, folder.path), depth);
  }
  if (folder.moreFiles > 0) items.push({ type: 'more', depth, count: folder.moreFiles, of: 'files' });
}

function addFile(items: OutlineItem[], file: OutlineFile, name: string, depth: number): void {
  items.push({ type: 'file', depth, name, file });
  for (const definition of file.definitions) addDefinition(items, definition, depth + 1);
  if (file.moreDefinitions > 0) items.push({ type: 'more', depth: depth + 1, count: file.moreDefinitions, of: 'definitions' });
}

function addDefinition(items: OutlineItem[], definition: OutlineDefinition, depth: number): void {
  items.push({ type: 'definition', depth, definition });
  for (const child of definition.children) addDefinition(items, child, depth + 1);
}

function nameUnder(path: string, parentPath: string): string {
  return parentPath === '' ? path : path.slice(parentPath.length + 1);
}

/** `… N more` (definitions) or `… N more files`. */
export function moreText(item: Extract<OutlineItem, { type: 'more' }>): string {
  return item.of === 'definitions' ? `… ${item.count} more` : `… ${item.count} more ${item.count === 1 ? 'file' : 'files'}`;
}

/**
 * The text format: folders as `name/`, files by name, each level indented two spaces; a
 * definition as `LINE: signature` (` — doc` added with detail full) with what it contains below
 * it; what is not shown counted as `… N more` (definitions) or `… N more files` at the end of its
 * file or folder.
 */
export const TEXT_OUTLINE: OutlineFormat = {
  lines: (tree) => outlineItems(tree).map(textLine),
};

function textLine(item: OutlineItem): string {
  const indent = '  '.repeat(item.depth);
  switch (item.type) {
    case 'folder':
      return `${indent}${oneLine(item.name)}/`;
    case 'file':
      return `${indent}${oneLine(item.name)}`;
    case 'definition':
      return `${indent}${definitionText(item.definition)}`;
    case 'more':
      return `${indent}${moreText(item)}`;
  }
}

/** `LINE: signature`, and ` — doc` when it has one. */
export function definitionText(definition: OutlineDefinition): string {
  const head = oneLine(definition.signature || definition.name);
  return `${definition.line}: ${head}${definition.doc ? ` — ${oneLine(definition.doc)}` : ''}`;
}
