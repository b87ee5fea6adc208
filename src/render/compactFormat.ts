import type { Definition } from '../record/fileRecord.js';
import { cachedBlock, oneLine } from './formatKit.js';
import type { FormatOptions, MapFormat, MapSource } from './formats.js';
import type { FileToRender } from './renderMap.js';

/**
 * The compact format (after the Symbol Index's): a legend once, then per file in path order
 * `path ←N → imports +M` (N files import it; of the repository files it imports, those the map
 * lists, and how many others) and its symbols,
 * one a line, `kind name(params)->return :line`, indented one space under the file and one more
 * per enclosing symbol (methods under their class); frequent folder prefixes aliased (`$1=src/lib/`); test files
 * counted, not listed. The symbols are the definitions at the entries' lines and those that
 * enclose them, from the records: no source line is shown.
 */
export const compactFormat: MapFormat = {
  render(files, source, options) {
    if (files.length === 0) return [];
    const listed = files.filter((file) => !source.isTest(file.path));
    const tests = files.length - listed.length;
    const inMap = new Set(files.map((file) => file.path));
    const imports = listed.map((file) => importsIn(source, file.path, inMap));
    const aliases = chooseAliases(listed.flatMap((file, at) => [file.path, ...imports[at]!.paths]));
    const aliasKey = aliases.join('\n');
    const kinds = new Set<string>();
    const blocks = listed.map((file, at) => {
      for (const symbol of symbolsOf(source, file)) kinds.add(kindLetter(symbol.kind));
      const shown = imports[at]!;
      const key = `compact\n${aliasKey}\n${file.path}\n${file.lineKey}\n${shown.paths.join('\n')}\n${shown.more}`;
      return cachedBlock(options.blockCache, key, () => fileBlock(file, source, shown, aliases, options));
    });
    return [legend(kinds, aliases), ...blocks, ...(tests > 0 ? [`# ${tests} test file${tests === 1 ? '' : 's'} not listed\n`] : [])];
  },
};

const KIND_LETTERS: Readonly<Record<string, string>> = {
  class: 'c',
  interface: 'i',
  type: 't',
  enum: 'e',
  module: 'd',
  function: 'f',
  method: 'm',
  constructor: 'n',
  constant: 'k',
  variable: 'v',
  macro: 'x',
};
const OTHER_KIND = 'o';
const KIND_ORDER = [...Object.keys(KIND_LETTERS), 'other'];

function kindLetter(kind: string): string {
  return Object.hasOwn(KIND_LETTERS, kind) ? KIND_LETTERS[kind]! : OTHER_KIND;
}

/** The notation, the kinds the map holds (in a fixed order) and the aliases it uses. */
function legend(letters: ReadonlySet<string>, aliases: readonly string[]): string {
  const kinds = KIND_ORDER.filter((kind) => letters.has(kindLetter(kind))).map((kind) => `${kindLetter(kind)}=${kind}`);
  let text = '# compact map: path ←N (N files import it) → its imports in this map +M others; symbols: kind name(params)->return :line, members indented\n';
  if (kinds.length > 0) text += `# kinds: ${kinds.join(' ')}\n`;
  if (aliases.length > 0) text += `# ${aliases.map((prefix, at) => `$${at + 1}=${oneLine(prefix)}`).join(' ')}\n`;
  return text;
}

interface ShownImports {
  /** The imported files the map lists too. */
  paths: readonly string[];
  /** How many other files it imports. */
  more: number;
}

/** A file's imports as the map shows them: the files it lists too by path (the links within the map), the others counted. */
function importsIn(source: MapSource, path: string, inMap: ReadonlySet<string>): ShownImports {
  const imports = source.imports(path).filter((target) => target !== path);
  const paths = imports.filter((target) => inMap.has(target));
  return { paths, more: imports.length - paths.length };
}

function fileBlock(file: FileToRender, source: MapSource, imports: ShownImports, aliases: readonly string[], options: FormatOptions): string {
  const { paths, more } = imports;
  let head = `${aliased(file.path, aliases)} ←${source.importerCount(file.path)}`;
  if (paths.length + more > 0) head += ` →${paths.map((path) => ` ${aliased(path, aliases)}`).join(',')}${more > 0 ? ` +${more}` : ''}`;
  let block = `${head}\n`;
  for (const symbol of symbolsOf(source, file)) block += `${symbolLine(symbol, fileLanguageIsJava(file.path), options.maxLineLength)}\n`;
  return block;
}

function aliased(path: string, aliases: readonly string[]): string {
  let best = -1;
  aliases.forEach((prefix, at) => {
    if (path.startsWith(prefix) && (best < 0 || prefix.length > aliases[best]!.length)) best = at;
  });
  return oneLine(best < 0 ? path : `$${best + 1}${path.slice(aliases[best]!.length)}`);
}

interface ShownSymbol extends Definition {
  depth: number;
}

const symbolsByFile = new WeakMap<readonly Definition[], Map<string, ShownSymbol[]>>();

/** The definitions at the file's lines and those enclosing them, by line, each with how many of them enclose it. */
function symbolsOf(source: MapSource, file: FileToRender): ShownSymbol[] {
  if (!file.lines) return [];
  const definitions = source.definitions(file.path);
  let byKey = symbolsByFile.get(definitions);
  if (!byKey) {
    byKey = new Map();
    symbolsByFile.set(definitions, byKey);
  }
  const known = byKey.get(file.lineKey);
  if (known) return known;
  const lines = new Set(file.lines);
  const encloses = (outer: Definition, inner: Definition) =>
    outer !== inner && outer.line <= inner.line && inner.endLine <= outer.endLine && (outer.line < inner.line || outer.endLine > inner.endLine);
  const chosen = new Set(definitions.filter((definition) => lines.has(definition.line)));
  for (const definition of [...chosen]) for (const outer of definitions) if (encloses(outer, definition)) chosen.add(outer);
  const sorted = [...chosen].sort((a, b) => a.line - b.line || b.endLine - a.endLine || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const symbols = sorted.map((definition) => ({ ...definition, depth: sorted.filter((outer) => encloses(outer, definition)).length }));
  byKey.set(file.lineKey, symbols);
  return symbols;
}

function fileLanguageIsJava(path: string): boolean {
  return path.endsWith('.java');
}

/** One space under its file and one per enclosing symbol, then `kind name(params)->return :line`, the middle cut with `…` to keep the line within maxLength. */
function symbolLine(symbol: ShownSymbol, java: boolean, maxLength: number): string {
  const indent = ' '.repeat(symbol.depth + 1);
  const suffix = ` :${symbol.line}`;
  const head = `${kindLetter(symbol.kind)} ${oneLine(symbol.name)}${oneLine(callShape(symbol, java))}`;
  const room = Math.max(1, maxLength - indent.length - suffix.length);
  return `${indent}${
    head.length > room
      ? `${Array.from(head)
          .slice(0, room - 1)
          .join('')}…`
      : head
  }${suffix}`;
}

const CALLABLE_KINDS = new Set(['function', 'method', 'constructor']);
const RECEIVER_PARAMETER = /^(?:self|cls|this|&self|&mut self|mut self|&'\w+ self|&'\w+ mut self)(?:\s*:[^,]*)?(?:,\s*|$)/;
const JAVA_MODIFIERS = new Set(['public', 'private', 'protected', 'static', 'final', 'abstract', 'synchronized', 'native', 'default', 'strictfp']);

/** `(params)->return` from a callable's signature ('' for others, or when the signature shows no parameter list). */
export function callShape(definition: Pick<Definition, 'name' | 'kind' | 'signature'>, java: boolean): string {
  if (!CALLABLE_KINDS.has(definition.kind)) return '';
  const { signature, name } = definition;
  const nameAt = wordAt(signature, name);
  if (nameAt < 0) return '';
  let at = skipSpaces(signature, nameAt + name.length);
  if (signature[at] === '<') at = skipSpaces(signature, closing(signature, at));
  // `name = (…) =>`, `name: function (…)`
  const assigned = /^[=:]\s*(?:async\s*)?(?:function\b\s*\*?\s*)?/.exec(signature.slice(at));
  if (signature[at] !== '(' && assigned) at += assigned[0].length;
  if (signature[at] !== '(') return '';
  const end = closing(signature, at);
  const params = signature
    .slice(at + 1, end - 1)
    .trim()
    .replace(/\s*,$/, '')
    .replace(RECEIVER_PARAMETER, '');
  const returned = returnAfter(signature.slice(end)) || (java ? javaReturn(signature.slice(0, nameAt)) : '');
  return `(${params})${returned ? `->${returned}` : ''}`;
}

/** Where `word` first stands as a whole identifier in `text`, −1 when nowhere. */
function wordAt(text: string, word: string): number {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!/[\w$]/.test(text[at - 1] ?? '') && !/[\w$]/.test(text[at + word.length] ?? '')) return at;
  }
  return -1;
}

function skipSpaces(text: string, at: number): number {
  while (text[at] === ' ') at++;
  return at;
}

/** The index after the bracket closing the one at `open` (or the text's end when none does). */
function closing(text: string, open: number): number {
  const opener = text[open]!;
  const closer = opener === '(' ? ')' : '>';
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    if (text[at] === opener) depth++;
    else if (text[at] === closer && text[at - 1] !== '=' && --depth === 0) return at + 1;
  }
  return text.length;
}

/** What follows the parameters, as a return type: `-> T:`, `: T {`, `T {`, `: T =>`, cut before `where` and `throws`. */
function returnAfter(rest: string): string {
  let text = rest.replace(/\s+(?:where|throws)\b.*$/, '').trim();
  for (let last = ''; last !== text; ) {
    last = text;
    text = text.replace(/\s*(?:\{|=>|:|;|,|=)$/, '').trim();
  }
  return text.replace(/^(?:->|:|=>)\s*/, '').trim();
}

/** A Java method's return type: the last word before its name that is no modifier or annotation. */
function javaReturn(before: string): string {
  const word = before.trim().split(/\s+/).at(-1) ?? '';
  return word === '' || word.startsWith('@') || JAVA_MODIFIERS.has(word) || word.startsWith('<') ? '' : word;
}

/** At most this many aliases: each is a legend entry to read. */
const MAX_ALIASES = 9;
/** An alias must save at least this many characters, its legend entry paid. */
const MIN_ALIAS_GAIN = 12;

/**
 * The folder prefixes to alias, greedily by characters saved: each use of `$N` instead of its
 * prefix saves the prefix's length less 2, its legend entry costs the prefix's length and 4. A
 * path takes the longest chosen prefix it starts with.
 */
export function chooseAliases(paths: readonly string[]): string[] {
  const holders = new Map<string, number[]>();
  paths.forEach((path, at) => {
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const prefix = path.slice(0, slash + 1);
      let list = holders.get(prefix);
      if (!list) {
        list = [];
        holders.set(prefix, list);
      }
      list.push(at);
    }
  });
  const shownLength = paths.map((path) => path.length);
  const chosen: string[] = [];
  while (chosen.length < MAX_ALIASES) {
    let best: string | null = null;
    let bestGain = MIN_ALIAS_GAIN - 1;
    for (const [prefix, list] of holders) {
      let gain = -(prefix.length + 4);
      for (const at of list) gain += Math.max(0, shownLength[at]! - (paths[at]!.length - prefix.length + 2));
      if (gain > bestGain || (gain === bestGain && best !== null && prefix < best)) {
        best = prefix;
        bestGain = gain;
      }
    }
    if (best === null) break;
    chosen.push(best);
    for (const at of holders.get(best)!) shownLength[at] = Math.min(shownLength[at]!, paths[at]!.length - best.length + 2);
    holders.delete(best);
  }
  return chosen;
}
