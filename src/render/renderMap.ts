import { DEFAULTS } from '../defaults.js';
import type { MapStyle } from '../options/libraryOptions.js';
import type { RenderPart } from '../record/fileRecord.js';

/**
 * A ranked list rendered in aider's format, from stored records: no source file is read, nothing
 * is parsed. Style `aider` is aider's to_tree with grep-ast's TreeContext as aider configures it;
 * `signatures` shows fewer lines in the same format, so the same per-line token counts apply.
 */

/** A ranked-list entry to render: a definition's file and line, or a bare file. */
export interface RenderEntry {
  path: string;
  /** 1-based lines of the selected definitions; empty for a bare file entry. */
  lines: readonly number[] | Int32Array;
}

export interface RenderOptions {
  chatFiles?: ReadonlySet<string>;
  maxLineLength?: number;
  /** Default `signatures`. */
  style?: MapStyle;
  /**
   * Blocks rendered before, by path and lines, for a caller that renders many prefixes of one
   * list with the same options (the packer's search): most files' blocks repeat.
   */
  blockCache?: Map<string, string>;
}

/**
 * Files in path order: `\n<path>:\n` and the file's shown lines for files with selected
 * definitions, `\n<path>\n` for the others; chat files left out; every line cut to the
 * maximum length; one final newline.
 */
export function renderMap(entries: readonly RenderEntry[], recordOf: (path: string) => RenderPart | undefined, options: RenderOptions = {}): string {
  const chatFiles = options.chatFiles ?? new Set<string>();
  const linesByFile = new Map<string, number[] | null>();
  for (const entry of entries) {
    if (chatFiles.has(entry.path)) continue;
    const known = linesByFile.get(entry.path);
    if (entry.lines.length === 0) {
      if (known === undefined) linesByFile.set(entry.path, null);
    } else if (known) {
      known.push(...entry.lines);
    } else {
      linesByFile.set(entry.path, [...entry.lines]);
    }
  }
  if (linesByFile.size === 0) return '';

  const maxLength = options.maxLineLength ?? DEFAULTS.maxLineLength;
  const shownLines: ShownLines = options.style === 'aider' ? aiderLines : signatureLines;
  let output = '';
  for (const path of [...linesByFile.keys()].sort(comparePaths)) {
    const lines = linesByFile.get(path)!;
    const key = lines ? `${path}\n${[...new Set(lines)].sort((a, b) => a - b).join(',')}` : path;
    let block = options.blockCache?.get(key);
    if (block === undefined) {
      const record = lines ? recordOf(path) : undefined;
      // Cut line by line: a block ends with a newline, so no line spans two blocks.
      block = cutLines(lines && record ? `\n${path}:\n${renderFile(record, lines, shownLines)}` : `\n${path}\n`, maxLength);
      options.blockCache?.set(key, block);
    }
    output += block;
  }
  return output;
}

/** aider's shown lines: the lines of interest, their scopes' header lines (stored per definition), small gaps closed. */
function aiderLines(record: RenderPart, linesOfInterest: readonly number[], texts: ReadonlyMap<number, string>): Set<number> {
  const scopeLinesByLine = new Map<number, readonly number[]>(record.scopes);
  const shown = new Set<number>();
  for (const line of linesOfInterest) {
    shown.add(line);
    for (const scopeLine of scopeLinesByLine.get(line) ?? []) shown.add(scopeLine);
  }
  closeSmallGaps(shown, texts, record.lineCount);
  return shown;
}

/** Each line of interest's signature lines (stored per definition line; the line alone for most). */
function signatureLines(record: RenderPart, linesOfInterest: readonly number[]): Set<number> {
  const signatureLinesByLine = new Map<number, readonly number[]>(record.signatures);
  const shown = new Set<number>();
  for (const line of linesOfInterest) {
    shown.add(line);
    for (const signatureLine of signatureLinesByLine.get(line) ?? []) shown.add(signatureLine);
  }
  return shown;
}

type ShownLines = (record: RenderPart, linesOfInterest: readonly number[], texts: ReadonlyMap<number, string>) => Set<number>;

/** One file's block: `│` + text per shown line and `⋮` per run of hidden lines. */
function renderFile(record: RenderPart, linesOfInterest: readonly number[], shownLines: ShownLines): string {
  const texts = new Map<number, string>();
  for (let i = 0; i < record.lineNumbers.length; i++) texts.set(record.lineNumbers[i]!, record.lineTexts[i]!);
  const shown = shownLines(record, linesOfInterest, texts);
  let output = '';
  let dots = !shown.has(1);
  for (let line = 1; line <= record.lineCount; line++) {
    if (!shown.has(line)) {
      if (dots) output += '⋮\n';
      dots = false;
      continue;
    }
    output += `│${texts.get(line) ?? ''}\n`;
    dots = true;
  }
  return output;
}

/**
 * grep-ast's closing: a line between two shown lines two apart is shown; then a blank line
 * right after a shown non-blank line is shown (once: the added blank line adds no more).
 */
function closeSmallGaps(shown: Set<number>, texts: ReadonlyMap<number, string>, lineCount: number): void {
  const textOf = (line: number) => texts.get(line) ?? '';
  const sorted = [...shown].sort((a, b) => a - b);
  for (let i = 0; i + 1 < sorted.length; i++) if (sorted[i + 1]! - sorted[i]! === 2) shown.add(sorted[i]! + 1);
  const candidates = [...shown].sort((a, b) => a - b);
  for (const line of candidates) {
    if (line < lineCount && textOf(line).trim() !== '' && textOf(line + 1).trim() === '') shown.add(line + 1);
  }
}

function cutLines(text: string, maxLength: number): string {
  return text
    .split('\n')
    .map((line) => cutLine(line, maxLength))
    .join('\n');
}

/** The first `maxLength` characters, counted in code points as Python slices strings. */
function cutLine(line: string, maxLength: number): string {
  if (line.length <= maxLength) return line;
  const cut = line.slice(0, maxLength);
  // No surrogate pair in the first maxLength units: code units and code points agree.
  if (!/[\uD800-\uDBFF]/.test(cut)) return cut;
  return Array.from(line).slice(0, maxLength).join('');
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
