import { DEFAULTS } from '../defaults.js';
import type { MapStyle } from '../options/libraryOptions.js';
import type { RenderPart } from '../record/fileRecord.js';
import { lowerBound } from '../sortedSearch.js';

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
function aiderLines(record: RenderPart, linesOfInterest: readonly number[], texts: StoredLines): Set<number> {
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

type ShownLines = (record: RenderPart, linesOfInterest: readonly number[], texts: StoredLines) => Set<number>;

/** One file's block: `│` + text per shown line, cut to the maximum length, and `⋮` per run of hidden lines. */
function renderFile(record: RenderPart, linesOfInterest: readonly number[], shownLines: ShownLines, maxLength: number): string {
  const lines = storedLinesOf(record);
  const shown = shownLines(record, linesOfInterest, lines);
  // Over the shown lines, not every line of the file: a long file's block costs what it shows.
  const sorted = [...shown].filter((line) => line >= 1 && line <= record.lineCount).sort((a, b) => a - b);
  let output = '';
  let previous = 0;
  for (const line of sorted) {
    if (line > previous + 1) output += '⋮\n';
    output += lines.rendered(line, maxLength);
    previous = line;
  }
  if (previous < record.lineCount) output += '⋮\n';
  return output;
}

/**
 * A record's stored lines by number (lineNumbers ascending), each found by binary search and
 * rendered once (`│` + text, cut, newline): a block shows a few lines of a file that may store
 * thousands (webpack's 20,000-line parsers), and the packer renders each block many times.
 */
class StoredLines {
  private readonly renderedLines = new Map<number, string>();
  private renderedLength = -1;

  constructor(private readonly record: RenderPart) {}

  text(line: number): string | undefined {
    const at = lowerBound(this.record.lineNumbers, line);
    return this.record.lineNumbers[at] === line ? this.record.lineTexts[at] : undefined;
  }

  rendered(line: number, maxLength: number): string {
    if (maxLength !== this.renderedLength) {
      this.renderedLines.clear();
      this.renderedLength = maxLength;
    }
    let rendered = this.renderedLines.get(line);
    if (rendered === undefined) {
      const text = this.text(line);
      rendered = text === undefined ? '│\n' : `${cutLine(`│${text}`, maxLength)}\n`;
      this.renderedLines.set(line, rendered);
    }
    return rendered;
  }
}

const storedLinesByRecord = new WeakMap<RenderPart, StoredLines>();

function storedLinesOf(record: RenderPart): StoredLines {
  let lines = storedLinesByRecord.get(record);
  if (!lines) {
    lines = new StoredLines(record);
    storedLinesByRecord.set(record, lines);
  }
  return lines;
}

/**
 * grep-ast's closing: a line between two shown lines two apart is shown; then a blank line
 * right after a shown non-blank line is shown (once: the added blank line adds no more).
 */
function closeSmallGaps(shown: Set<number>, texts: StoredLines, lineCount: number): void {
  const textOf = (line: number) => texts.text(line) ?? '';
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
