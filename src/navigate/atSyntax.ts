import { createRequire } from 'node:module';
import type ParserType from 'tree-sitter';
import { DEFAULTS } from '../defaults.js';
import type { Language } from '../record/fileRecord.js';
import { loadGrammar } from '../treeSitterGrammars.js';

/**
 * The syntax `at` reads to resolve a name as a careful reader would: one file's tree (parsed on
 * demand, only by `at`, only for the files a resolution visits) and each language's rules for
 * scopes, bindings, classes and members. The grammars load lazily: no other command pays them.
 */

export type SyntaxNode = ParserType.SyntaxNode;

/** A name bound in a scope, as its declaration states it. */
export interface Binding {
  /** The bound name's node. */
  name: SyntaxNode;
  /** parameter, variable, function, class, method, property, attribute, import, type, … */
  kind: string;
  /** For a name bound by an import: the module as written and the name taken (null: the module itself; 'default'). */
  import?: { module: string; name: string | null; require?: boolean };
  /** The type its declaration states (an annotation), or the class it is constructed from (`Foo(…)`, `new Foo`). */
  type?: SyntaxNode;
  /** An alias of another expression (`x = obj.member`, `export { a as b }`): the expression. */
  alias?: SyntaxNode;
  /** For a name destructured from a value (`const { a: x } = f()`): the member taken (`a`) of what `type` gives. */
  member?: string;
}

export interface LanguageRules {
  /** The scopes whose names are visible at `node`, innermost first (Python's class bodies only from their own statements). */
  scopes(node: SyntaxNode): SyntaxNode[];
  /** The bindings of `name` a scope makes, in source order. */
  bindingsIn(scope: SyntaxNode, name: string): Binding[];
  /** Which of a scope's bindings a use at `use` sees: Python's flow picks the last before it, a declaration is one. */
  visible(bindings: Binding[], scope: SyntaxNode, use: SyntaxNode): Binding[];
  /** The object expression when `node` is the member name of `object.member`; null otherwise. */
  receiverOf(node: SyntaxNode): SyntaxNode | null;
  /** The class (or object literal) a `self`/`this`/`cls` receiver stands for; null when it is not one or cannot be told. */
  selfOwner(receiver: SyntaxNode): SyntaxNode | null;
  /** For `super` / `super()`: the class whose bases to search; null when it is not one. */
  superOwner(receiver: SyntaxNode): SyntaxNode | null;
  /** The class an expression constructs (`Foo(…)`, `new Foo(…)`): the callee; null when it constructs none that can be told. */
  constructed(expression: SyntaxNode): SyntaxNode | null;
  /** The type a type expression names, wrappers (`Optional[X]`, `X | None`, `Promise<X>`) seen through. */
  namedType(type: SyntaxNode): SyntaxNode | null;
  /** The members named `name` of a class or object literal, declared in it (bases aside). */
  members(owner: SyntaxNode, name: string): Binding[];
  /** What a function declaration without a stated return type returns: its first `return`'s value (an arrow's body); null when none can be told. */
  returned(declaration: SyntaxNode): SyntaxNode | null;
  /** The base class expressions of a class. */
  bases(owner: SyntaxNode): SyntaxNode[];
  /** Whether a node is a class (or interface) declaration; its name is `nameOf`. */
  isClass(node: SyntaxNode): boolean;
  /** For a name written in an import statement: the module and the name it takes (null: the module itself). */
  importedAt(node: SyntaxNode): { module: string; name: string | null } | null;
  /** The modules a module's wildcard entries take everything from (`from m import *`, `export * from`). */
  wildcards(root: SyntaxNode): string[];
  /**
   * What a module gives its importers under `name` ('default': an ES default export or CommonJS's
   * `module.exports = x`): declarations, re-exports (as import bindings), aliases of local names.
   */
  exported(root: SyntaxNode, name: string): Binding[];
  /** Names every module sees unbound (Python's builtins): such a name no scope binds has no definition in the repository. */
  builtins: ReadonlySet<string>;
}

const require = createRequire(import.meta.url);
const parsers = new Map<Language, ParserType>();

function parserFor(language: Language): ParserType | null {
  let parser = parsers.get(language);
  if (parser) return parser;
  if (language !== 'python' && language !== 'javascript' && language !== 'typescript' && language !== 'tsx') return null;
  const Parser = require('tree-sitter') as typeof ParserType;
  parser = new Parser();
  parser.setLanguage(loadGrammar(language));
  parsers.set(language, parser);
  return parser;
}

/** A parsed file: its tree and lines, positions converted between tree-sitter's bytes and editors' characters. */
export class ParsedFile {
  constructor(
    readonly path: string,
    readonly language: Language,
    readonly lines: readonly string[],
    readonly root: SyntaxNode,
    /** Per 0-based line, 1 when the parse left it out (see atPrune.ts); null for a whole parse. */
    readonly cut: Uint8Array | null = null,
  ) {}

  /** Whether the parse left out any line strictly inside the node (so its tree lacks what they hold). */
  isCutIn(node: SyntaxNode): boolean {
    if (!this.cut) return false;
    for (let row = node.startPosition.row + 1; row < node.endPosition.row; row++) if (this.cut[row]) return true;
    return false;
  }

  /** The smallest named node covering the 1-based line and character column. */
  nodeAt(line: number, column: number): SyntaxNode | null {
    const text = this.lines[line - 1];
    if (text === undefined) return null;
    const byte = Buffer.byteLength(text.slice(0, column - 1));
    return this.root.namedDescendantForPosition({ row: line - 1, column: byte });
  }

  /** A node's 1-based line and character column. */
  position(node: SyntaxNode): { line: number; column: number } {
    const { row, column } = node.startPosition;
    const text = this.lines[row] ?? '';
    return { line: row + 1, column: Buffer.from(text).subarray(0, column).toString('utf8').length + 1 };
  }
}

/**
 * Parses a file's lines, those `cut` marks left out (blank, so every other line keeps its
 * number): the first of these without a syntax error, else the whole file's with its errors —
 * the cut lines, the whole file, each also with its generic call signatures separated (see
 * separateSignatures). Null for a language `at` has no syntax rules for, or a parse that fails.
 */
export function parseFile(path: string, language: Language | null, lines: readonly string[], cut: Uint8Array | null = null): ParsedFile | null {
  if (!language || !parserFor(language)) return null;
  let whole: SyntaxNode | null = null;
  for (const [text, textCut] of attemptsOf(language, lines, cut)) {
    const root = parseText(language, text);
    if (root && !root.hasError) return new ParsedFile(path, language, lines, root, textCut);
    if (text === lines) whole = root;
  }
  return whole ? new ParsedFile(path, language, lines, whole) : null;
}

/**
 * Whole parses kept across `at` calls by a caller that asks again and again (a server), each
 * reused only for the same text, the least recently used dropped past `maxBytes` of source.
 */
export class ParsedFiles {
  private readonly files = new Map<string, { text: string; parsed: ParsedFile | null }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** parseFile's answer; a cut parse is made anew, being made for one line. */
  parse(path: string, language: Language | null, lines: readonly string[], cut: Uint8Array | null = null): ParsedFile | null {
    if (cut) return parseFile(path, language, lines, cut);
    const text = lines.join('\n');
    const kept = this.files.get(path);
    this.forget(path);
    const parsed = kept && kept.text === text ? kept.parsed : parseFile(path, language, lines);
    this.files.set(path, { text, parsed });
    this.bytes += text.length;
    for (const [oldest] of this.files) {
      if (this.bytes <= this.maxBytes || oldest === path) break;
      this.forget(oldest);
    }
    return parsed;
  }

  private forget(path: string): void {
    const kept = this.files.get(path);
    if (!kept) return;
    this.bytes -= kept.text.length;
    this.files.delete(path);
  }
}

/** The texts parseFile tries, in its order, each made only once the one before it has failed. */
function* attemptsOf(language: Language, lines: readonly string[], cut: Uint8Array | null): Generator<[readonly string[], Uint8Array | null]> {
  const cutOf = (text: readonly string[]) => text.map((line, at) => (cut?.[at] ? '' : line));
  if (cut) yield [cutOf(lines), cut];
  const separated = language === 'typescript' ? separateSignatures(lines) : null;
  if (cut && separated) yield [cutOf(separated), cut];
  yield [lines, null];
  if (separated) yield [separated, null];
}

function parseText(language: Language, lines: readonly string[]): SyntaxNode | null {
  const parser = parserFor(language)!;
  try {
    const text = lines.join('\n');
    // The binding reads a string in chunks of bufferSize: one chunk is enough.
    const options = { bufferSize: Math.max(32 * 1024, Buffer.byteLength(text) + 1) };
    // Bounded as the index bounds a file: a parse past the per-file limit gives no tree, and `at` answers by name.
    parser.setTimeoutMicros(DEFAULTS.fileTimeoutMs * 1000);
    const root = parser.parse(text, undefined, options).rootNode;
    // tree-sitter-javascript 0.25 fails on JSX attributes named like keywords (`<p class="x">`);
    // the TSX grammar reads them, and the rest of JavaScript as well.
    if (language === 'javascript' && root.hasError) {
      const tsxParser = parserFor('tsx')!;
      tsxParser.setTimeoutMicros(DEFAULTS.fileTimeoutMs * 1000);
      const tsx = tsxParser.parse(text, undefined, options).rootNode;
      if (!tsx.hasError) return tsx;
    }
    return root;
  } catch {
    return null;
  }
}

/**
 * The lines with a `;` after each member that a generic call signature on a line of its own
 * follows (`): Promise<T>` then `<U>(x: U): U`), which TypeScript reads as it reads them without;
 * null when no line starts so. tree-sitter-typescript reads the `<` as a comparison that goes on
 * the member before (tree-sitter-typescript#335), and every scope after it is lost.
 */
export function separateSignatures(lines: readonly string[]): string[] | null {
  let separated: string[] | null = null;
  let code = -1;
  for (let at = 0; at < lines.length; at++) {
    const text = lines[at]!.trim();
    if (text === '' || text.startsWith('//') || text.startsWith('*') || text.startsWith('/*')) continue;
    if (text.startsWith('<') && !text.startsWith('<<') && code >= 0 && /[\w$)\]>}]$/.test(lines[code]!.trimEnd())) {
      separated ??= [...lines];
      separated[code] = `${lines[code]!.trimEnd()};`;
    }
    code = at;
  }
  return separated;
}

/** The value of the first `return` under `node`, the scopes `nested` names passed over (their returns are their own). */
export function firstReturned(node: SyntaxNode, nested: (type: string) => boolean): SyntaxNode | null {
  for (const child of node.namedChildren) {
    if (nested(child.type)) continue;
    const found = child.type === 'return_statement' ? (child.namedChildren[0] ?? null) : firstReturned(child, nested);
    if (found) return found;
  }
  return null;
}

/** The text of a string literal without its quotes. */
export function stringValue(node: SyntaxNode): string {
  return node.text.replace(/^['"`]|['"`]$/g, '');
}
