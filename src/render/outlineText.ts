import type { OutlineDefinition, OutlineDetail, OutlineEntry, OutlineFile, OutlineFolder } from '../navigate/outlineTree.js';

/**
 * A format of outlines: the shown outline as lines. A rendering is each line followed by a
 * newline, and its cl100k count is exactly the sum of its lines' counts, each with its newline,
 * provided every line is non-empty and holds no CR or LF: cl100k's pre-tokenizer has no
 * lookbehind, and each of its pieces that reaches a newline ends with the newlines it meets,
 * so no piece spans two lines unless an empty line joins their newlines (test/navigate checks
 * this against a whole encode). Budgeted outlines are counted this way.
 */
export interface OutlineFormat {
  lines(tree: OutlineEntry, detail: OutlineDetail): string[];
}

const INDENT = '  ';

/**
 * The text format: folders as `name/` (a folder holding nothing but one folder joined with it:
 * `src/main/java/`), files by name, each level indented two spaces; a definition as
 * `LINE: signature` (` — doc` added with detail full) with what it contains below it; what is
 * not shown counted as `… N more` (definitions) or `… N more files` at the end of its file or
 * folder. The root has no line of its own; another PATH's line is its path.
 */
export const TEXT_OUTLINE: OutlineFormat = {
  lines(tree) {
    const lines: string[] = [];
    if (tree.type === 'file') addFile(lines, tree, tree.path, '');
    else if (tree.path === '') addFolderBody(lines, tree, '');
    else addFolder(lines, tree, '', '');
    return lines;
  },
};

function addFolder(lines: string[], folder: OutlineFolder, parentPath: string, indent: string): void {
  let shown = folder;
  for (let only = shown.entries[0]; shown.moreFiles === 0 && shown.entries.length === 1 && only?.type === 'folder'; only = shown.entries[0]) shown = only;
  lines.push(`${indent}${printable(nameUnder(shown.path, parentPath))}/`);
  addFolderBody(lines, shown, indent + INDENT);
}

function addFolderBody(lines: string[], folder: OutlineFolder, indent: string): void {
  for (const entry of folder.entries) {
    if (entry.type === 'folder') addFolder(lines, entry, folder.path, indent);
    else addFile(lines, entry, nameUnder(entry.path, folder.path), indent);
  }
  if (folder.moreFiles > 0) lines.push(`${indent}… ${folder.moreFiles} more ${folder.moreFiles === 1 ? 'file' : 'files'}`);
}

function addFile(lines: string[], file: OutlineFile, name: string, indent: string): void {
  lines.push(`${indent}${printable(name)}`);
  for (const definition of file.definitions) addDefinition(lines, definition, indent + INDENT);
  if (file.moreDefinitions > 0) lines.push(`${indent}${INDENT}… ${file.moreDefinitions} more`);
}

function addDefinition(lines: string[], definition: OutlineDefinition, indent: string): void {
  const head = printable(definition.signature || definition.name);
  lines.push(`${indent}${definition.line}: ${head}${definition.doc ? ` — ${printable(definition.doc)}` : ''}`);
  for (const child of definition.children) addDefinition(lines, child, indent + INDENT);
}

function nameUnder(path: string, parentPath: string): string {
  return parentPath === '' ? path : path.slice(parentPath.length + 1);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is replaced.
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/** Control characters (a newline in a file's name) as `\xNN`: a line must stay one line for its count to hold. */
function printable(text: string): string {
  // Tested first: a replace with a function costs even where it finds nothing.
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
