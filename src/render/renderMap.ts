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
  return renderBlocks(entries, recordOf, options).join('');
}

/** renderMap's output as its files' blocks, in order: each starts with a newline and ends with one. */
export function renderBlocks(entries: readonly RenderEntry[], recordOf: (path: string) => RenderPart | undefined, options: RenderOptions = {}): string[] {
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
  if (linesByFile.size === 0) return [];

  const maxLength = options.maxLineLength ?? DEFAULTS.maxLineLength;
  const shownLines: ShownLines = options.style === 'aider' ? aiderLines : signatureLines;
  const blocks: string[] = [];
  for (const path of [...linesByFile.keys()].sort(comparePaths)) {
    const lines = linesByFile.get(path)!;
    const key = lines ? `${path}\n${[...new Set(lines)].sort((a, b) => a - b).join(',')}` : path;
    let block = options.blockCache?.get(key);
    if (block === undefined) {
      const record = lines ? recordOf(path) : undefined;
      // Cut line by line: a block ends with a newline, so no line spans two blocks.
      block = lines && record ? `\n${cutLine(`${path}:`, maxLength)}\n${renderFile(record, lines, shownLines, maxLength)}` : `\n${cutLine(path, maxLength)}\n`;
      options.blockCache?.set(key, block);
    }
    blocks.push(block);
  }
  return blocks;
}

/** aider's shown lines: the lines of interest, their scopes' header lines (stored per definition), small gaps closed. */
function aiderLines(record: RenderPart, linesOfInterest: readonly number[], texts: ReadonlyMap<number, string>): Set<number> {
  const scopeLinesByLine = byLine(record.scopes);
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
  const signatureLinesByLine = byLine(record.signatures);
  const shown = new Set<number>();
  for (const line of linesOfInterest) {
    shown.add(line);
    for (const signatureLine of signatureLinesByLine.get(line) ?? []) shown.add(signatureLine);
  }
  return shown;
}

const linesByLine = new WeakMap<readonly (readonly [number, readonly number[]])[], ReadonlyMap<number, readonly number[]>>();

/** A record's per-line lists (scopes, signatures) as a map, made once per record: a block is rendered many times. */
function byLine(pairs: readonly (readonly [number, readonly number[]])[]): ReadonlyMap<number, readonly number[]> {
  let map = linesByLine.get(pairs);
  if (!map) {
    map = new Map(pairs);
    linesByLine.set(pairs, map);
  }
  return map;
}

type ShownLines = (record: RenderPart, linesOfInterest: readonly number[], texts: ReadonlyMap<number, string>) => Set<number>;

/** One file's block: `│` + text per shown line, cut to the maximum length, and `⋮` per run of hidden lines. */
function renderFile(record: RenderPart, linesOfInterest: readonly number[], shownLines: ShownLines, maxLength: number): string {
  const texts = textsOf(record);
  const shown = shownLines(record, linesOfInterest, texts);
  const rendered = renderedLinesOf(record, maxLength);
  // Over the shown lines, not every line of the file: a long file's block costs what it shows.
  const sorted = [...shown].filter((line) => line >= 1 && line <= record.lineCount).sort((a, b) => a - b);
  let output = '';
  let previous = 0;
  for (const line of sorted) {
    if (line > previous + 1) output += '⋮\n';
    output += rendered.get(line) ?? '│\n';
    previous = line;
  }
  if (previous < record.lineCount) output += '⋮\n';
  return output;
}

const textsByRecord = new WeakMap<RenderPart, ReadonlyMap<number, string>>();
const renderedByRecord = new WeakMap<RenderPart, { maxLength: number; lines: Map<number, string> }>();

/** A record's stored lines as a block shows them (`│` + text, cut, newline), made once per record and length: the packer renders each many times. */
function renderedLinesOf(record: RenderPart, maxLength: number): ReadonlyMap<number, string> {
  let rendered = renderedByRecord.get(record);
  if (!rendered || rendered.maxLength !== maxLength) {
    const lines = new Map<number, string>();
    for (let i = 0; i < record.lineNumbers.length; i++) lines.set(record.lineNumbers[i]!, `${cutLine(`│${record.lineTexts[i]!}`, maxLength)}\n`);
    rendered = { maxLength, lines };
    renderedByRecord.set(record, rendered);
  }
  return rendered.lines;
}

/** A record's stored line texts by line number, made once per record. */
function textsOf(record: RenderPart): ReadonlyMap<number, string> {
  let texts = textsByRecord.get(record);
  if (!texts) {
    const byLine = new Map<number, string>();
    for (let i = 0; i < record.lineNumbers.length; i++) byLine.set(record.lineNumbers[i]!, record.lineTexts[i]!);
    texts = byLine;
    textsByRecord.set(record, texts);
  }
  return texts;
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
