import { DEFAULTS } from '../defaults.js';
import type { RenderPart } from '../record/fileRecord.js';
import { lowerBound } from '../sortedSearch.js';
import type { MapFormat, MapStyle } from './formats.js';

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

/** The text format (src/render/formats.ts): aider's, whose blocks each start with a newline and end with one. */
export const textFormat: MapFormat = {
  render: (files, source, options) => textBlocks(files, (path) => source.renderPart(path), options),
};

/** renderMap's output as its files' blocks, in order: each starts with a newline and ends with one. */
export function renderBlocks(entries: readonly RenderEntry[], recordOf: (path: string) => RenderPart | undefined, options: RenderOptions = {}): string[] {
  return textBlocks(filesToRender(entries, options), recordOf, options);
}

function textBlocks(files: readonly FileToRender[], recordOf: (path: string) => RenderPart | undefined, options: RenderOptions): string[] {
  const maxLength = options.maxLineLength ?? DEFAULTS.maxLineLength;
  return files.map((file) =>
    cachedBlock(options, `${file.path}\n${file.lineKey}`, () => {
      const record = file.lines ? recordOf(file.path) : undefined;
      // Cut line by line: a block ends with a newline, so no line spans two blocks.
      return file.lines && record
        ? `\n${cutLine(`${file.path}:`, maxLength)}\n${shownLinesOf(record, file.lines, options)}`
        : `\n${cutLine(file.path, maxLength)}\n`;
    }),
  );
}

/** A file the entries show, with what every format needs to render it. */
export interface FileToRender {
  path: string;
  /** The lines of its selected definitions, as given; null for a file listed bare. */
  lines: number[] | null;
  /** 1 for the file of the best-ranked entry, 2 for the next file to come, …: the entries are in ranked order. */
  rank: number;
  /** Its distinct lines ascending, joined: with the path, what its block depends on. */
  lineKey: string;
}

/** The files the entries show, chat files left out, in path order. */
export function filesToRender(entries: readonly RenderEntry[], options: Pick<RenderOptions, 'chatFiles'> = {}): FileToRender[] {
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
  const ranks = new Map([...linesByFile.keys()].map((path, at) => [path, at + 1]));
  return [...linesByFile.keys()].sort(comparePaths).map((path) => {
    const lines = linesByFile.get(path)!;
    return { path, lines, rank: ranks.get(path)!, lineKey: lines ? [...new Set(lines)].sort((a, b) => a - b).join(',') : '' };
  });
}

/** A block from options.blockCache, made and kept on a miss: the packer renders many prefixes of one list, and most blocks repeat. */
function cachedBlock(options: Pick<RenderOptions, 'blockCache'>, key: string, make: () => string): string {
  let block = options.blockCache?.get(key);
  if (block === undefined) {
    block = make();
    options.blockCache?.set(key, block);
  }
  return block;
}

/** A file's shown lines in the text format, the options' style: `│` + text per line, `⋮` per run of hidden lines. */
export function shownLinesOf(record: RenderPart, lines: readonly number[], options: Pick<RenderOptions, 'style' | 'maxLineLength'>): string {
  return renderFile(record, lines, SHOWN_LINES[options.style ?? DEFAULTS.style], options.maxLineLength ?? DEFAULTS.maxLineLength);
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

/** Each registered style's lines (src/render/formats.ts). */
const SHOWN_LINES: Record<MapStyle, ShownLines> = { signatures: signatureLines, aider: aiderLines };

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
