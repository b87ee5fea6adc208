import type { Definition, RenderPart } from '../record/fileRecord.js';
import { type FileToRender, textFormat } from './renderMap.js';

/**
 * The map's output styles and formats, registered here and nowhere else: the option tables take
 * their names from these rows, and composeMap (or any command that renders shown entries, such
 * as `outline`) loads a format through its row. Only `text` is loaded with this module: every
 * other format is imported when it is asked for, and imports nothing the text map loads (any
 * module both import would be a chunk of its own in the bundle, which every map would load):
 * what they need of the text format and the ranking comes through MapSource.
 *
 * Budget exactness, the rule every format keeps: the packer counts a rendering as
 * RenderedTokenCounter does (src/pack/tokenCount.ts), 1 for a leading newline plus each
 * non-empty line's cl100k count with its newline, and a full encode of the rendering gives the
 * same count; so the largest rendering the packer finds within the budget is within it. The
 * formats other than `text` keep it by construction: each of their lines holds a non-whitespace
 * character, none but an indented symbol line starts with whitespace, and a `\r` can stand only
 * after the first non-whitespace character (paths are shown escaped: see oneLine). Then every
 * piece cl100k's pre-tokenizer cuts ends on or before a line's newline, and the next piece starts
 * the next line, as when that line is encoded alone. `text` keeps it as measured (tokenCount.ts).
 * test/render/formats.test.ts checks it for every style × format and sweeps budgets.
 */

/** How the text lines are chosen (the text, xml and markdown formats show them; compact shows symbols). */
export const MAP_STYLES = {
  signatures: "each definition's signature under its enclosing scopes' heads",
  aider: "aider's rendering: the definition lines, their scopes' header lines, small gaps closed",
} as const;

export type MapStyle = keyof typeof MAP_STYLES;

export const MAP_STYLE_NAMES = Object.keys(MAP_STYLES) as MapStyle[];

/** What a format reads of the files it shows: their stored parts, the text format's lines and the resolved-import graph. */
export interface MapSource {
  /** What a text rendering shows lines from; undefined for a file with no record. */
  renderPart(path: string): RenderPart | undefined;
  /** The file's shown lines in the text format and the options' style (`│` + text, `⋮` per run left out); undefined for a file with no record. */
  shownLines(path: string, lines: readonly number[], options: FormatOptions): string | undefined;
  /** Whether the file is a test (src/rank/fileRoles.ts). */
  isTest(path: string): boolean;
  /** The file's definitions (name, kind, line, endLine, signature), in the record's order. */
  definitions(path: string): readonly Definition[];
  /** The repository files the file's resolved imports name, in path order. */
  imports(path: string): readonly string[];
  /** How many files' resolved imports name the file. */
  importerCount(path: string): number;
}

export interface FormatOptions {
  maxLineLength: number;
  style: MapStyle;
  /** Blocks rendered before, by a key each format makes (starting with its name): the packer renders many prefixes of one list, and most blocks repeat. */
  blockCache?: Map<string, string>;
}

/** A format: the shown files as blocks. */
export interface MapFormat {
  /**
   * The files the entries show (see filesToRender: in path order, each with its lines and its place
   * in the ranking) as blocks whose concatenation is the rendering, which keeps the counting
   * rule above; [] for no file. The same files always give the same blocks, so the packer may
   * count each block once.
   */
  render(files: readonly FileToRender[], source: MapSource, options: FormatOptions): string[];
}

interface FormatRow {
  readonly describe: string;
  readonly load: () => Promise<MapFormat>;
}

export const MAP_FORMATS = {
  text: { describe: "aider's: each file's path, then its shown lines", load: async () => textFormat },
  compact: {
    describe: 'a legend, then per file its importers and imports and its symbols as kind name(params)->return :line',
    load: async () => (await import('./compactFormat.js')).compactFormat,
  },
  xml: { describe: '<map><file path="…" rank="…">shown lines</file></map>', load: async () => (await import('./xmlFormat.js')).xmlFormat },
  markdown: {
    describe: 'a `## path` heading and a fenced block of shown lines per file',
    load: async () => (await import('./markdownFormat.js')).markdownFormat,
  },
} as const satisfies Record<string, FormatRow>;

export type MapFormatName = keyof typeof MAP_FORMATS;

export const MAP_FORMAT_NAMES = Object.keys(MAP_FORMATS) as MapFormatName[];
