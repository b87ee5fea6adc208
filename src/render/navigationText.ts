import type { AtAnswer, AtDefinition } from '../navigate/at.js';
import type { DepLink, DepsResult } from '../navigate/deps.js';
import type { FindHit, FindResult } from '../navigate/find.js';

/** The navigation answers as lines, for a terminal (the CLI) and for a model (the MCP server) alike. */

/** How many crossing names a deps line shows: the JSON has them all. */
const SHOWN_NAMES = 12;

/** Control characters shown as escapes: a newline in a name must not start a line, nor an escape sequence reach the terminal. */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
  return text.replace(/[\u0000-\u001f\u007f]/g, (char) =>
    char === '\n' ? '\\n' : char === '\t' ? '\\t' : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** A source line for a terminal: as oneLine, but a tab stays a tab (indentation is no danger). */
export function sourceLine(text: string): string {
  return text.split('\t').map(oneLine).join('\t');
}

/** find: one line per hit (`path:line: def class: text`); with context, grep's `path-line-` lines around it and `--` between hits. */
export function findHitsText(hits: readonly FindHit[], withContext: boolean): string[] {
  const out: string[] = [];
  for (const hit of hits) {
    if (withContext && out.length > 0) out.push('--');
    for (const line of hit.context) if (line.line < hit.line) out.push(contextLine(hit, line));
    out.push(`${oneLine(hit.path)}:${hit.line}: ${hit.role} ${hit.kind}: ${sourceLine(hit.text.trimEnd())}`);
    for (const line of hit.context) if (line.line > hit.line) out.push(contextLine(hit, line));
  }
  return out;
}

/** `repomap find`'s output: the hits, then how many the limit left out. */
export function findText(result: FindResult, withContext: boolean): string {
  const out = findHitsText([...result.definitions, ...result.references], withContext);
  if (result.omitted > 0) out.push(`… ${result.omitted} more (raise --limit)`);
  return `${out.join('\n')}\n`;
}

function contextLine(hit: FindHit, { line, text }: { line: number; text: string }): string {
  return `${oneLine(hit.path)}-${line}- ${sourceLine(text.trimEnd())}`;
}

/**
 * deps and refs: a line per linked file. deps: `path  ← importer:line module  names: …` (the
 * importer is FILE, or past depth 1 the file it was reached through); refs: `path:line module
 * names: …` (the import is the linked file's own). Past depth 1, `via` the files between.
 */
export function linkLine(result: Pick<DepsResult, 'direction'>, link: DepLink): string {
  const via = link.depth > 1 ? `  via ${link.via.slice(1).map(oneLine).join(' → ')}` : '';
  if (result.direction === 'importers') {
    const where = link.imports.map((entry) => `${oneLine(link.path)}:${entry.line} ${oneLine(entry.module)}`).join(', ');
    return `${where}  names: ${names(link.names)}${via}`;
  }
  const importer = oneLine(link.via.at(-1)!);
  const where = link.imports.map((entry) => `${importer}:${entry.line} ${oneLine(entry.module)}`).join(', ');
  return `${oneLine(link.path)}  ← ${where}  names: ${names(link.names)}${via}`;
}

/** A file linked by names alone, under the heading `name-only links (no import):`. */
export function nameLinkLine(link: { path: string; names: readonly string[] }): string {
  return `${oneLine(link.path)}  names: ${names(link.names)}`;
}

export const NAME_LINKS_HEADING = 'name-only links (no import):';

/** `repomap deps`/`refs`' output: the import links, then the name-only links under their heading. */
export function depsText(result: DepsResult): string {
  const out = result.links.map((link) => linkLine(result, link));
  if (result.nameLinks.length > 0) {
    out.push(NAME_LINKS_HEADING);
    for (const link of result.nameLinks) out.push(nameLinkLine(link));
  }
  return `${out.join('\n')}\n`;
}

function names(list: readonly string[]): string {
  if (list.length === 0) return '-';
  const shown = list.slice(0, SHOWN_NAMES).map(oneLine).join(', ');
  return list.length > SHOWN_NAMES ? `${shown} … ${list.length - SHOWN_NAMES} more` : shown;
}

/** at: the position and its identifier, its definitions best first, the hover and the references; '' for a position with no identifier. */
export function atText(answer: AtAnswer): string {
  if (answer.identifier === null) return '';
  const lines = [`${answer.path}:${answer.line}:${answer.column} ${answer.identifier}`];
  if (answer.definitions.length === 0) lines.push('  no definition in the repository');
  else if (answer.ambiguous) lines.push(`  ${answer.definitions.length} definitions (${answer.definitions[0]!.how}), ranked:`);
  for (const definition of answer.definitions) lines.push(`  ${definitionLine(definition)}`);
  if (answer.hover) lines.push(`  hover: ${answer.hover.replace('\n', ' · ')}`);
  const shown = answer.references.map(({ path, line }) => `${path}:${line}`);
  const more = answer.referenceFiles > 0 ? ` (in ${answer.referenceFiles} file${answer.referenceFiles === 1 ? '' : 's'})` : '';
  lines.push(`  references${more}: ${shown.length > 0 ? shown.join(' ') : 'none listed'}`);
  return `${lines.join('\n')}\n`;
}

function definitionLine({ path, line, column, kind, how, signature }: AtDefinition): string {
  return `${path}:${line}:${column} ${kind} [${how}] ${signature}`;
}
