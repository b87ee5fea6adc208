import { basename, dirname, posix } from 'node:path';
import { languageOf } from '../discover/languages.js';
import { UsageError } from '../errors.js';
import { FAMILY_OF } from '../imports/resolvers.js';
import { definerSlots, definitionsOfSlot, pathOfSlot, referencersOf } from '../rank/tableLookups.js';
import type { Definition, Language, References } from '../record/fileRecord.js';
import { ecmaRules } from './atEcma.js';
import { callOf, namedParameters, SIGNATURES, takesCall } from './atOverloads.js';
import { PRUNE_FROM_BYTES, prunableLines } from './atPrune.js';
import { pythonRules } from './atPython.js';
import { type Binding, type LanguageRules, type ParsedFile, type ParsedFiles, parseFile, type SyntaxNode } from './atSyntax.js';
import type { RepoView } from './repoView.js';

/**
 * `repomap at FILE:LINE[:COL]`: the identifier at a position, its definitions as a careful reader
 * without a type checker finds them, its references and a hover text. Each definition says how it
 * was found: `scope` (a binding of the file's own scopes), `import` (through the file's imports
 * and the re-exports behind them), `receiver` (a member of `self`/`this`'s class or of a receiver
 * whose type the file states), `name-only` (every definition of the name, ranked: never one
 * silent guess).
 */

export type How = 'scope' | 'import' | 'receiver' | 'name-only';

export interface AtDefinition {
  path: string;
  line: number;
  column: number;
  kind: string;
  /** The definition's head (the record's signature, else its line, trimmed). */
  signature: string;
  /** First line of its doc comment; '' when it has none. */
  doc: string;
  how: How;
}

export interface AtReference {
  path: string;
  line: number;
}

export interface AtAnswer {
  path: string;
  line: number;
  /** The identifier's first column (1-based), or the column asked for when there is none. */
  column: number;
  /** null when no identifier is at the position. */
  identifier: string | null;
  /** Best first; all of one `how`. */
  definitions: AtDefinition[];
  /** Several definitions found by the same means: the first is a ranking, not a resolution. */
  ambiguous: boolean;
  /** Lines referencing the name (by name, in files by rank), at most `maxReferences`. */
  references: AtReference[];
  /** How many files reference the name. */
  referenceFiles: number;
  /** The top definition's signature and first doc line; '' with no definition. */
  hover: string;
}

export interface AtResult {
  positions: AtAnswer[];
}

export interface AtPosition {
  path: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters; omitted: the first identifier on the line with a reference or definition there. */
  column?: number;
}

export interface AtOptions {
  /** References listed per position (default 50; 0 for none). */
  maxReferences?: number;
  /** Parses kept from earlier calls, and where this call's are kept (a server's; see ParsedFiles). */
  parsedFiles?: ParsedFiles;
}

/** The most name-only candidates listed: beyond it a name is too common for a list to help. */
const MAX_CANDIDATES = 50;
/** Kinds of definitions that are members of a class or an object. */
const MEMBER_KINDS = new Set(['method', 'constructor', 'property', 'field', 'attribute']);
/** TypeScript's declaration files: `.d.ts`, `.d.mts`, `.d.cts`. */
const DECLARATION_FILE = /\.d\.(m|c)?ts$/;
/** How far bindings are followed (imports through re-exports, types through members, bases). */
const MAX_DEPTH = 8;
/** The most owners one round of a resolution looks for: a bound on its time whatever the code. */
const MAX_STEPS = 20_000;
const IDENTIFIER = /[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*/gu;
/** The same on ASCII text, where V8 need not build the Unicode classes first (1 ms of a run). */
const ASCII_IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const NON_ASCII = /[\u0080-\uffff]/;

/** The identifiers of a line, with their 0-based UTF-16 indexes. */
function identifiersIn(text: string): ReturnType<string['matchAll']> {
  return text.matchAll(NON_ASCII.test(text) ? IDENTIFIER : ASCII_IDENTIFIER);
}

/** `FILE:LINE[:COL]` read from the right, so a path may hold colons; a UsageError when malformed. */
export function parsePosition(spec: string): AtPosition {
  const match = /^(.+?):(\d+)(?::(\d+))?$/.exec(spec);
  const line = match ? Number(match[2]) : 0;
  const column = match?.[3] === undefined ? undefined : Number(match[3]);
  if (!match || line < 1 || line > MAX_LINE || (column !== undefined && (column < 1 || column > MAX_COLUMN))) {
    throw new UsageError(`malformed position '${spec}': expected FILE:LINE[:COL], 1-based`);
  }
  return column === undefined ? { path: match[1]!, line } : { path: match[1]!, line, column };
}

/** The largest line and column a position may name: past any file's. */
export const MAX_LINE = 1e9;
export const MAX_COLUMN = 1e6;

/** The most positions one call answers. */
export const MAX_POSITIONS = 10_000;

/** Each position answered; a position's file must be one of the repository's (RepoPathError). */
export async function at(view: RepoView, positions: readonly AtPosition[], options: AtOptions = {}): Promise<AtResult> {
  if (positions.length > MAX_POSITIONS) throw new UsageError(`at most ${MAX_POSITIONS} positions in one call (${positions.length} given)`);
  const resolver = new Resolver(view, options.parsedFiles);
  const answers: AtAnswer[] = [];
  for (const position of positions) {
    const path = view.repoPath(position.path, 'file');
    answers.push(await resolver.answer({ ...position, path }, options.maxReferences ?? 50));
  }
  return { positions: answers };
}

/** One found definition: a node of a parsed file, or a record's definition, or a module. */
type Found =
  | { how: How; file: ParsedFile; node: SyntaxNode; binding: Binding | null }
  | { how: How; path: string; definition: Definition }
  | { how: How; path: string; module: true };

/** What a receiver stands for; `basesOnly` for `super`, whose members are its bases'. */
type Owner = { kind: 'class' | 'object'; file: ParsedFile; node: SyntaxNode; basesOnly?: boolean } | { kind: 'module'; path: string };

function rulesOf(file: ParsedFile): LanguageRules {
  return file.language === 'python' ? pythonRules : ecmaRules;
}

class Resolver {
  private readonly parsed = new Map<string, ParsedFile | null>();
  /** Owners found in this round of a resolution, by file, node and depth. */
  private readonly owners = new Map<string, Owner | null>();
  /** Owners looked for in this round: past MAX_STEPS, the rest are not found. */
  private steps = 0;
  /** Files whose kept parse is cut, parsed whole. */
  private readonly whole = new Map<string, ParsedFile | null>();
  private readonly pathIds: Map<string, number>;
  /** Per file, its import entries' files as written; fetched for the files a resolution visits. */
  private readonly written = new Map<string, readonly (readonly string[])[]>();
  /** Files a resolution wanted the imports of before they were fetched: it runs again once they are. */
  private readonly missing = new Set<string>();
  private readonly referenceLists = new Map<string, References | undefined>();
  /** package.json files read for their stated types, by path; null when absent or not an object. */
  private readonly manifests = new Map<string, Record<string, unknown> | null>();

  constructor(
    private readonly view: RepoView,
    private readonly kept: ParsedFiles | undefined,
  ) {
    this.pathIds = new Map(view.paths.map((path, id) => [path, id]));
  }

  private parse(path: string, language: Language | null, lines: readonly string[], cut: Uint8Array | null = null): ParsedFile | null {
    return this.kept ? this.kept.parse(path, language, lines, cut) : parseFile(path, language, lines, cut);
  }

  async answer(position: AtPosition & { path: string }, maxReferences: number): Promise<AtAnswer> {
    const { path, line } = position;
    const lines = this.view.sourceLines(path) ?? [];
    const found = this.identifierAt(path, lines[line - 1] ?? '', line, position.column);
    const none: AtAnswer = {
      path,
      line,
      column: position.column ?? 1,
      identifier: null,
      definitions: [],
      ambiguous: false,
      references: [],
      referenceFiles: 0,
      hover: '',
    };
    if (!found) return none;
    const { name, column } = found;
    this.parseAround(path, line);
    // Imports are followed only where syntax rules read the file (Python, JavaScript, TypeScript).
    if (this.file(path)) await this.fetchImports([path]);
    let definitions: AtDefinition[] = [];
    // Imports are resolved for the files a resolution reaches, round by round (a chain of re-exports is a few).
    for (let round = 0; round <= MAX_DEPTH; round++) {
      this.missing.clear();
      this.owners.clear();
      this.steps = 0;
      definitions = this.resolve(path, line, column, name);
      if (this.missing.size === 0) break;
      await this.fetchImports([...this.missing]);
    }
    if (definitions.length === 0 && !this.isBuiltin(path, line, column, name)) definitions = await this.nameOnly(path, name, this.isMember(path, line, column));
    const top = definitions[0];
    const { references, files } = await this.references(path, name, maxReferences);
    return {
      path,
      line,
      column,
      identifier: name,
      definitions,
      ambiguous: definitions.length > 1,
      references,
      referenceFiles: files,
      hover: top ? (top.doc ? `${top.signature}\n${top.doc}` : top.signature) : '',
    };
  }

  /**
   * The imports of `paths` as written, resolved together with those of the files they lead to
   * (the stored targets, hubs seen through, and the hubs themselves): each resolution costs about
   * the same whatever it is asked, so a chain of re-exports takes one or two, not one a file.
   */
  private async fetchImports(paths: readonly string[]): Promise<void> {
    const stored = await this.view.importTargets();
    const around = (files: Iterable<string>, via: (path: string) => readonly (readonly string[])[] | undefined): string[] => {
      const reached = new Set<string>();
      for (const path of files) for (const entry of via(path) ?? []) for (const target of entry) reached.add(target);
      return [...reached];
    };
    const storedOf = (path: string) => stored.of(this.pathIds.get(path) ?? -1);
    await this.resolveWritten([...paths, ...around(paths, storedOf)]);
    const hubs = around(paths, (path) => this.written.get(path)).filter((path) => !this.written.has(path));
    await this.resolveWritten([...hubs, ...around(hubs, storedOf)]);
  }

  private async resolveWritten(paths: readonly string[]): Promise<void> {
    const wanted = [...new Set(paths)].filter((path) => !this.written.has(path));
    if (wanted.length === 0) return;
    for (const [path, entries] of await this.view.writtenImportTargets(wanted)) this.written.set(path, entries);
    for (const path of wanted) if (!this.written.has(path)) this.written.set(path, []);
  }

  /** The identifier covering the column (or ending just before it); without a column, the first one the record tags on the line. */
  private identifierAt(path: string, text: string, line: number, column: number | undefined): { name: string; column: number } | null {
    const words = [...identifiersIn(text)].map((match) => ({ name: match[0], column: match.index + 1 }));
    if (column !== undefined) {
      return (
        words.find((word) => column >= word.column && column < word.column + word.name.length) ??
        words.find((word) => column === word.column + word.name.length) ??
        null
      );
    }
    const references = this.referencesIn(path);
    if (!references) return null;
    const tagged = new Set<string>();
    references.names.forEach((name, at) => {
      if (references.lines[at] === line) tagged.add(name);
    });
    for (const definition of this.definitionsOf(path)) if (definition.line === line) tagged.add(definition.name);
    return words.find((word) => tagged.has(word.name)) ?? null;
  }

  /** Whether an identifier no scope binds is one of the names the language gives every module: its definition is none of the repository's. */
  private isBuiltin(path: string, line: number, column: number, name: string): boolean {
    const file = this.file(path);
    const node = file?.nodeAt(line, column);
    return !!file && !!node && rulesOf(file).builtins.has(name) && rulesOf(file).receiverOf(node) === null;
  }

  /** Whether the identifier is the member of `object.member` (so name-only prefers members). */
  private isMember(path: string, line: number, column: number): boolean {
    const file = this.file(path);
    if (file) {
      const node = file.nodeAt(line, column);
      return !!node && rulesOf(file).receiverOf(node) !== null;
    }
    const before = (this.view.sourceLines(path)?.[line - 1] ?? '').slice(0, column - 1);
    return /(\.|::|->)\s*$/.test(before);
  }

  /** A file's references, decoded once: the position's file is read for its identifier and again for the references listed. */
  private referencesIn(path: string): References | undefined {
    if (!this.referenceLists.has(path)) this.referenceLists.set(path, this.view.references(path));
    return this.referenceLists.get(path);
  }

  /** A file's definitions, from the part of its record ranking reads (kept by the view): `at` never needs a whole record. */
  private definitionsOf(path: string): readonly Definition[] {
    return this.view.rankPart(path)?.definitions ?? [];
  }

  /** A file as a resolution reads it: a large JavaScript or TypeScript file without the insides of its classes and functions (atPrune.ts). */
  private file(path: string): ParsedFile | null {
    if (!this.parsed.has(path)) {
      const lines = this.view.sourceLines(path);
      this.parsed.set(path, lines ? this.parse(path, languageOf(path), lines, this.cutFor(path, lines, 0)) : null);
    }
    return this.parsed.get(path)!;
  }

  /** A position's file parsed for it: what holds the line is kept whole. */
  private parseAround(path: string, line: number): void {
    const lines = this.view.sourceLines(path);
    const cut = lines ? this.cutFor(path, lines, line) : null;
    const parsed = this.parsed.get(path);
    if (parsed !== undefined && (!parsed?.cut || sameLines(parsed.cut, cut))) return;
    this.parsed.set(path, lines ? this.parse(path, languageOf(path), lines, cut) : null);
  }

  /** The lines a parse of a large JavaScript or TypeScript file leaves out, those around `line` kept (0: none); null for a file parsed whole. */
  private cutFor(path: string, lines: readonly string[], line: number): Uint8Array | null {
    const language = languageOf(path);
    if (language !== 'javascript' && language !== 'typescript' && language !== 'tsx') return null;
    // Counted only up to the bound: a loop over every line of a large file gets it optimized in the background, which the exit then waits for.
    let bytes = 0;
    for (let at = 0; at < lines.length && bytes < PRUNE_FROM_BYTES; at++) bytes += lines[at]!.length + 1;
    return bytes < PRUNE_FROM_BYTES ? null : prunableLines(lines, this.definitionsOf(path), line);
  }

  /** A file parsed whole, for what a cut parse left out. */
  private wholeFile(path: string): ParsedFile | null {
    const parsed = this.file(path);
    if (!parsed?.cut) return parsed;
    if (!this.whole.has(path)) this.whole.set(path, this.parse(path, parsed.language, parsed.lines));
    return this.whole.get(path)!;
  }

  /** What a declaration without a stated type returns (its first `return`'s value), read from the whole file where its body was cut. */
  private returnedValue(file: ParsedFile, declaration: SyntaxNode): { file: ParsedFile; node: SyntaxNode } | null {
    const whole = this.uncut(file, declaration);
    const value = whole ? rulesOf(whole.file).returned(whole.node) : null;
    return whole && value ? { file: whole.file, node: value } : null;
  }

  /** A node whose inside a cut parse left out, as the whole file's parse has it; the node itself when nothing inside it was cut. */
  private uncut(file: ParsedFile, node: SyntaxNode): { file: ParsedFile; node: SyntaxNode } | null {
    if (!file.isCutIn(node)) return { file, node };
    const whole = this.wholeFile(file.path);
    let same = whole ? whole.root.descendantForPosition(node.startPosition, node.endPosition) : null;
    while (same && same.type !== node.type) same = same.parent;
    return whole && same ? { file: whole, node: same } : null;
  }

  private resolve(path: string, line: number, column: number, name: string): AtDefinition[] {
    const file = this.file(path);
    if (!file) return this.sameFile(path, line, name);
    const node = file.nodeAt(line, column);
    if (!node || node.text !== name) return [];
    const rules = rulesOf(file);
    const receiver = rules.receiverOf(node);
    const imported = rules.importedAt(node);
    let found: Found[];
    if (imported) {
      found = this.follow(file, { name: node, kind: 'import', import: imported }, 0);
    } else if (receiver) {
      const owner = this.ownerOf(file, receiver, 0);
      found = owner ? this.memberOf(owner, name, 0, new Set()) : [];
      if (owner?.kind === 'module') found = found.map((one) => ({ ...one, how: 'import' }));
    } else {
      found = this.nameIn(file, node, name, 0);
      // A member's own name (a method's, a field's) is bound in no scope: it is its own definition.
      if (found.length === 0 && this.declaresAt(file, node, line)) found = [{ how: 'scope', file, node, binding: null }];
    }
    const call = file.language === 'python' ? null : callOf(node);
    if (call && !receiver && !imported && file.language === 'javascript') found = found.flatMap((one) => [...this.calledThroughAlias(one), one]);
    return dedupe((call ? this.fittingFirst(found, call, file) : found).map((one) => this.definitionOf(one)));
  }

  /**
   * For a JavaScript variable that aliases a member (`var stringify = utils.stringify`) and is
   * called: the member, as TypeScript reads such a declaration in JavaScript as an alias (in
   * TypeScript it lists the variable first, as `at` does); none for any other binding.
   */
  private calledThroughAlias(one: Found): Found[] {
    if (!('file' in one) || one.binding?.alias?.type !== 'member_expression' || one.binding.kind !== 'variable') return [];
    const receiver = one.binding.alias.childForFieldName('object');
    const member = one.binding.alias.childForFieldName('property');
    const owner = receiver && member ? this.ownerOf(one.file, receiver, 1) : null;
    if (!owner || !member) return [];
    const found = this.memberOf(owner, member.text, 1, new Set());
    return owner.kind === 'module' ? found.map((target) => ({ ...target, how: 'import' as const })) : found;
  }

  /** Whether `node` is the name its parent declares, as the file's record has a definition of it on the line. */
  private declaresAt(file: ParsedFile, node: SyntaxNode, line: number): boolean {
    if (node.parent?.childForFieldName('name')?.id !== node.id) return false;
    return this.definitionsOf(file.path).some((definition) => definition.line === line && definition.name === node.text);
  }

  /** Overloads the call's arguments fit before those they do not, as TypeScript picks the first that fits; `caller` is the call's file. */
  private fittingFirst(found: Found[], call: SyntaxNode, caller: ParsedFile): Found[] {
    const strictNulls = caller.language !== 'javascript';
    const fits = found.map((one) => {
      const declaration = 'file' in one ? one.node.parent : null;
      if (!declaration || !('file' in one)) return null;
      const file = one.file;
      return takesCall(declaration, call, (name) => this.declaredType(file, name), strictNulls);
    });
    if (!fits.includes(false)) return found;
    return [...found.filter((_, at) => fits[at] !== false), ...found.filter((_, at) => fits[at] === false)];
  }

  /** What a type name declares in its own file: a type alias's value, an interface, a class, an enum; null for anything else. */
  private declaredType(file: ParsedFile, name: SyntaxNode): SyntaxNode | null {
    const binding = this.bindingOf(file, name);
    const declaration = binding?.import ? null : binding?.name.parent;
    if (!declaration) return null;
    if (declaration.type === 'type_alias_declaration') return declaration.childForFieldName('value');
    return /^(interface|class|abstract_class|enum)_declaration$/.test(declaration.type) ? declaration : null;
  }

  /** Without syntax rules: the file's own definitions of the name, the nearest enclosing or preceding first. */
  private sameFile(path: string, line: number, name: string): AtDefinition[] {
    const definitions = this.definitionsOf(path).filter((definition) => definition.name === name);
    const before = definitions.filter((definition) => definition.line <= line).reverse();
    const after = definitions.filter((definition) => definition.line > line);
    return [...before, ...after].map((definition) => this.definitionOf({ how: 'scope', path, definition }));
  }

  /** A plain name's bindings in the scopes around `node`, imports followed. */
  private nameIn(file: ParsedFile, node: SyntaxNode, name: string, depth: number): Found[] {
    const rules = rulesOf(file);
    for (const scope of scopesOf(file, node)) {
      const bindings = rules.bindingsIn(scope, name);
      if (bindings.length > 0) return rules.visible(bindings, scope, node).flatMap((binding) => this.follow(file, binding, depth));
    }
    return this.throughWildcards(file, name, depth);
  }

  private throughWildcards(file: ParsedFile, name: string, depth: number): Found[] {
    for (const module of rulesOf(file).wildcards(file.root)) {
      for (const target of this.importFiles(file.path, module, '*')) {
        const found = this.moduleMember(target, name, depth + 1);
        if (found.length > 0) return found;
      }
    }
    return [];
  }

  /** The binding a name sees, not followed. */
  private bindingOf(file: ParsedFile, node: SyntaxNode): Binding | undefined {
    const rules = rulesOf(file);
    for (const scope of scopesOf(file, node)) {
      const bindings = rules.bindingsIn(scope, node.text);
      if (bindings.length > 0) return rules.visible(bindings, scope, node)[0];
    }
    return undefined;
  }

  /** A module as a receiver: the one it hands on whole (`module.exports = require('./x')`), else itself. */
  private moduleOwner(path: string, depth: number): Owner {
    const file = depth <= MAX_DEPTH ? this.file(path) : null;
    const handed = file
      ? rulesOf(file)
          .exported(file.root, 'default')
          .find((binding) => binding.import?.require)
      : undefined;
    const [target] = handed?.import && file ? this.importFiles(file.path, handed.import.module, 'default') : [];
    return target ? this.moduleOwner(target, depth + 1) : { kind: 'module', path };
  }

  /** A binding as found: itself, or for an import what the imported module gives under that name. */
  private follow(file: ParsedFile, binding: Binding, depth: number): Found[] {
    if (!binding.import) return [{ how: 'scope', file, node: binding.name, binding }];
    if (depth > MAX_DEPTH) return [];
    const { module, name, require } = binding.import;
    const found: Found[] = [];
    const targets = this.importFiles(file.path, module, name);
    for (const target of targets) {
      const member = name === null ? [] : this.moduleMember(target, name, depth + 1);
      if (member.length > 0) found.push(...member.map((one) => ({ ...one, how: 'import' as const })));
      else if (name === null || require || isModuleNamed(target, name)) found.push({ how: 'import', path: target, module: true });
      // TypeScript reads the module from its declaration file alone: a name it never mentions goes no further than the import.
      else if (DECLARATION_FILE.test(target) && !this.mentions(target, name)) found.push({ how: 'import', file, node: binding.name, binding });
    }
    // A module outside the repository: the import is the definition the repository holds.
    if (targets.length === 0) found.push({ how: 'import', file, node: binding.name, binding });
    return found;
  }

  /** Whether a file's text holds the name as a word (what a declaration file declares or re-exports, it names). */
  private mentions(path: string, name: string): boolean {
    const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}($|[^\\w$])`);
    return (this.view.sourceLines(path) ?? []).some((line) => word.test(line));
  }

  /** What a module gives under a name: its own binding, an export, a wildcard's, or (a package) its submodule. */
  private moduleMember(path: string, name: string, depth: number): Found[] {
    if (depth > MAX_DEPTH) return [];
    const file = this.file(path);
    if (!file) {
      const definition = this.definitionsOf(path).find((one) => one.name === name);
      return definition ? [{ how: 'import', path, definition }] : [];
    }
    const exported = rulesOf(file).exported(file.root, name);
    if (exported.length > 0) {
      return exported.flatMap((binding) => {
        // `exports.x = require('m')`: TypeScript's definition of x is the assignment, not what m gives (the type flows on, see ownerOfFound).
        if (binding.import && binding.name.type === 'property_identifier') return [{ how: 'import' as const, file, node: binding.name, binding }];
        // `module.exports = { parse }` exports the local parse, as TypeScript reads it.
        if (binding.alias?.type !== 'identifier' && binding.alias?.type !== 'shorthand_property_identifier') return this.follow(file, binding, depth);
        const aliased = this.nameIn(file, binding.alias, binding.alias.text, depth + 1);
        return aliased.length > 0 ? aliased : [{ how: 'scope' as const, file, node: binding.name, binding }];
      });
    }
    const wildcard = this.throughWildcards(file, name, depth);
    if (wildcard.length > 0) return wildcard;
    if (file.language === 'python' && basename(path) === '__init__.py') {
      const folder = dirname(path);
      for (const candidate of [posix.join(folder, `${name}.py`), posix.join(folder, name, '__init__.py')]) {
        if (this.pathIds.has(candidate)) return [{ how: 'import', path: candidate, module: true }];
      }
    }
    return [];
  }

  /** The repository files an import of `module` in `path` names, from the resolved imports of the record's matching entries. */
  private importFiles(path: string, module: string, name: string | null): string[] {
    const record = this.view.rankPart(path);
    const entries = this.written.get(path);
    if (!record) return [];
    if (!entries) {
      this.missing.add(path);
      return [];
    }
    const matching = record.imports.modules.flatMap((written, entry) => (written === module ? [entry] : []));
    const taking = matching.filter((entry) => {
      const names = record.imports.names[entry] ?? [];
      return name === null || name === 'default' ? names.length === 0 : names.includes(name) || names.includes('*');
    });
    const chosen = taking.length > 0 ? taking : matching;
    const files = chosen.flatMap((entry) => (entries[entry] ?? []).flatMap((target) => [this.packageTypes(path, module, target) ?? [], target].flat()));
    // TypeScript reads a module's types from the declaration file beside it.
    const declared = files.flatMap((target) => {
      const declaration = target.replace(/\.(m|c)?jsx?$/, (_, kind: string | undefined) => `.d.${kind ?? ''}ts`);
      return declaration !== target && this.pathIds.has(declaration) ? [declaration, target] : [target];
    });
    return [...new Set(declared)];
  }

  /**
   * The declaration file TypeScript reads for an import that names a package (by name, or its
   * folder) whose manifest states its types (`types`, `typings`, `exports['.']`'s `types`); null
   * for an import naming a file, or a package that states none.
   */
  private packageTypes(from: string, module: string, target: string): string | null {
    const bare = !module.startsWith('.') && !module.startsWith('/');
    const named = bare ? null : posix.normalize(posix.join(posix.dirname(from), module)).replace(/\/+$/, '');
    for (let folder = posix.dirname(target); ; folder = posix.dirname(folder)) {
      const manifest = this.manifest(folder === '.' ? 'package.json' : `${folder}/package.json`);
      if (manifest) {
        const namesPackage = bare ? manifest.name === module : named === folder || (named === '' && folder === '.');
        const types = namesPackage ? (declaredTypes(manifest.exports) ?? manifest.types ?? manifest.typings) : undefined;
        const typesPath = typeof types === 'string' ? posix.normalize(posix.join(folder, types)) : null;
        return typesPath && typesPath !== target && this.pathIds.has(typesPath) ? typesPath : null;
      }
      if (folder === '.') return null;
    }
  }

  private manifest(path: string): Record<string, unknown> | null {
    if (!this.manifests.has(path)) {
      const lines = this.view.sourceLines(path);
      let parsed: unknown = null;
      try {
        parsed = lines ? JSON.parse(lines.join('\n')) : null;
      } catch {}
      this.manifests.set(path, parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null);
    }
    return this.manifests.get(path)!;
  }

  /** What an expression stands for, as far as the file states it: a class (or its instance), an object, a module. */
  private ownerOf(file: ParsedFile, expression: SyntaxNode, depth: number): Owner | null {
    if (depth > MAX_DEPTH || this.steps++ > MAX_STEPS) return null;
    // Kept: a call's callee and its receiver both ask for the owner of the same object, which in a
    // chain of calls (`delegate(…).method(…).method(…)…`) doubles the work at every link.
    const key = `${file.path}\0${file.cut ? 'cut' : 'whole'}\0${expression.id}\0${depth}`;
    if (this.owners.has(key)) return this.owners.get(key)!;
    const owner = this.ownerOfUncached(file, expression, depth);
    this.owners.set(key, owner);
    return owner;
  }

  private ownerOfUncached(file: ParsedFile, expression: SyntaxNode, depth: number): Owner | null {
    const rules = rulesOf(file);
    const parent = rules.superOwner(expression);
    if (parent) return { kind: 'class', file, node: parent, basesOnly: true };
    const self = rules.selfOwner(expression);
    if (self) {
      if (rules.isClass(self) || self.type === 'object') return { kind: rules.isClass(self) ? 'class' : 'object', file, node: self };
      return this.ownerOf(file, self, depth + 1) ?? { kind: 'object', file, node: self };
    }
    const callee = rules.constructed(expression) ?? (expression.type === 'call_expression' ? expression.childForFieldName('function') : null);
    // A sub-expression of the same file costs no depth: the syntax tree bounds it; hops to other nodes do.
    if (callee) return this.callResult(file, callee, depth);
    switch (expression.type) {
      case 'object':
        return { kind: 'object', file, node: expression };
      case 'identifier':
      case 'shorthand_property_identifier':
      case 'type_identifier': {
        const imported = this.bindingOf(file, expression)?.import;
        if (imported && (imported.name === null || imported.require)) {
          const [target] = this.importFiles(file.path, imported.module, imported.name);
          return target ? this.moduleOwner(target, depth + 1) : null;
        }
        return this.ownerOfFound(this.nameIn(file, expression, expression.text, depth + 1), depth);
      }
      case 'attribute':
      case 'member_expression':
      case 'nested_type_identifier': {
        const object = expression.childForFieldName('object') ?? expression.namedChildren[0]!;
        const member = expression.childForFieldName('attribute') ?? expression.childForFieldName('property') ?? expression.namedChildren.at(-1)!;
        if (expression.type === 'nested_type_identifier') {
          // `ns.Type`: what the namespace `ns` declares, though a function shares its name.
          const bindings = scopesOf(file, object)
            .map((scope) => rules.bindingsIn(scope, object.text))
            .find((list) => list.length > 0);
          const body = bindings?.find((binding) => binding.kind === 'module')?.name.parent?.childForFieldName('body');
          if (body) {
            const declared = rules.bindingsIn(body, member.text).map((binding) => ({ how: 'scope' as const, file, node: binding.name, binding }));
            return this.ownerOfFound(declared, depth + 1);
          }
        }
        const owner = this.ownerOf(file, object, depth);
        return owner ? this.ownerOfFound(this.memberOf(owner, member.text, depth + 1, new Set()), depth) : null;
      }
      case 'parenthesized_expression':
      case 'non_null_expression':
      case 'await_expression':
        return expression.namedChildren[0] ? this.ownerOf(file, expression.namedChildren[0], depth) : null;
      case 'as_expression': {
        const type = expression.namedChildren[1];
        const named = type && rules.namedType(type);
        return named ? this.classOnly(this.ownerOf(file, named, depth + 1)) : null;
      }
    }
    return null;
  }

  /** What a call gives: an instance of the class called, or what the function called states it returns. */
  private callResult(file: ParsedFile, callee: SyntaxNode, depth: number): Owner | null {
    if (depth > MAX_DEPTH) return null;
    const called = this.ownerOf(file, callee, depth);
    if (called?.kind === 'class') return called;
    if (called?.kind === 'object') {
      // Calling a value whose type has a call signature: what the signature returns.
      const parts = called.node.type === 'intersection_type' ? called.node.namedChildren : [called.node];
      const signature = parts.flatMap((part) => part.namedChildren).find((member) => member.type === 'call_signature');
      const returned = signature?.childForFieldName('return_type');
      const named = returned && rulesOf(called.file).namedType(returned);
      return named ? this.classOnly(this.ownerOf(called.file, named, depth + 1)) : null;
    }
    const rules = rulesOf(file);
    const receiver = rules.receiverOf(callee.childForFieldName('attribute') ?? callee.childForFieldName('property') ?? callee);
    let found: Found[];
    // A module called: what it gives whole (`const fastify = require('fastify'); fastify()`).
    if (called?.kind === 'module') found = this.moduleMember(called.path, 'default', depth + 1);
    else if (called) return null;
    else if (callee.type === 'identifier') found = this.nameIn(file, callee, callee.text, depth + 1);
    else if (receiver) {
      const owner = this.ownerOf(file, receiver, depth);
      const member = callee.childForFieldName('attribute') ?? callee.childForFieldName('property');
      found = owner && member ? this.memberOf(owner, member.text, depth + 1, new Set()) : [];
    } else return null;
    // An export that is an import (`exports.x = require('m')`) is called as what it imports.
    found = found.flatMap((one) => ('file' in one && one.binding?.import ? this.follow(one.file, one.binding, depth + 1) : [one]));
    const call = callee.parent?.type === 'call_expression' && file.language !== 'python' ? callee.parent : null;
    // The overload the call fits; a namespace merged with the function gives nothing.
    const first = (call ? this.fittingFirst(found, call, file) : found).find((one) => !('file' in one) || one.node.parent?.type !== 'internal_module');
    if (!first || !('file' in first)) return null;
    const declaration = first.node.parent;
    if (!declaration) return null;
    // A class reached through a module (`const WebSocket = require('..'); new WebSocket()`): its instance.
    if (rulesOf(first.file).isClass(declaration) && declaration.childForFieldName('name')?.id === first.node.id) {
      return { kind: 'class', file: first.file, node: declaration };
    }
    const returned = returnTypeOf(declaration);
    const stated = returned ? this.typeOwner(first.file, returned, depth + 1) : null;
    if (stated) return stated;
    // No stated type: what its first `return` gives, as a reader (and a type checker's inference) would take it.
    const value = returned ? null : this.returnedValue(first.file, declaration);
    return value ? this.classOnly(this.ownerOf(value.file, value.node, depth + 1)) : null;
  }

  /** What a value of a stated type is: an intersection's parts together, else the class, interface or object type it names. */
  private typeOwner(file: ParsedFile, type: SyntaxNode, depth: number): Owner | null {
    const inner = type.type === 'type_annotation' ? type.namedChildren[0] : type;
    if (inner?.type === 'intersection_type') return { kind: 'object', file, node: inner };
    const named = rulesOf(file).namedType(type);
    return named ? this.classOnly(this.ownerOf(file, named, depth)) : null;
  }

  /** A type's owner: a class, an interface or an object type; a module is no value's type. */
  private classOnly(owner: Owner | null): Owner | null {
    return owner && owner.kind !== 'module' ? owner : null;
  }

  /** A found definition as an owner: a module, a class, or the type its binding states. */
  private ownerOfFound(found: Found[], depth: number): Owner | null {
    const first = found[0];
    if (!first) return null;
    if ('module' in first) return { kind: 'module', path: first.path };
    if (!('file' in first)) return null;
    const rules = rulesOf(first.file);
    // A value exported as it is written: `export default { isArray, … }`.
    if (first.node.type === 'object') return { kind: 'object', file: first.file, node: first.node };
    const parent = first.node.parent;
    // `const utils = { isArray, … }`: the object as written.
    const value = parent?.type === 'variable_declarator' && parent.childForFieldName('name')?.id === first.node.id ? parent.childForFieldName('value') : null;
    if (value?.type === 'object') return { kind: 'object', file: first.file, node: value };
    if (parent && rules.isClass(parent) && parent.childForFieldName('name')?.id === first.node.id) return { kind: 'class', file: first.file, node: parent };
    // `type T = { member: … }`: an object type's members.
    const aliased = parent?.type === 'type_alias_declaration' ? parent.childForFieldName('value') : null;
    if (aliased && (aliased.type === 'object_type' || aliased.type === 'intersection_type')) return { kind: 'object', file: first.file, node: aliased };
    // `type Store = INTERNAL_Store`: the type it names.
    const named = aliased && rules.namedType(aliased);
    if (named) return this.classOnly(this.ownerOf(first.file, named, depth + 1));
    const binding = first.binding;
    if (!binding) return null;
    if (binding.type && binding.member !== undefined) {
      // `const { a } = f()`: the member `a` of what `f()` gives.
      const whole = this.ownerOf(first.file, binding.type, depth + 1);
      return whole ? this.ownerOfFound(this.memberOf(whole, binding.member, depth + 1, new Set()), depth + 1) : null;
    }
    if (binding.type) {
      const callee = rules.constructed(binding.type) ?? (binding.type.type === 'call_expression' ? binding.type.childForFieldName('function') : null);
      if (callee) return this.callResult(first.file, callee, depth + 1);
      return this.typeOwner(first.file, binding.type, depth + 1);
    }
    if (binding.alias) return this.ownerOf(first.file, binding.alias, depth + 1);
    if (binding.import && depth <= MAX_DEPTH) {
      const followed = this.follow(first.file, binding, depth + 1);
      // An import the repository cannot follow (a package outside it) says nothing of what it gives.
      return followed.some((one) => 'file' in one && one.file === first.file && one.node.id === first.node.id) ? null : this.ownerOfFound(followed, depth + 1);
    }
    if (binding.kind === 'parameter' && first.file.language !== 'python') return this.contextualOwner(first.file, first.node, depth + 1);
    return null;
  }

  /**
   * A callback's parameter the callback does not type: the type the function it is passed to
   * states for it (`app.register((instance) => instance.get(…))` takes `instance`'s type from
   * register's first parameter, a function type), as TypeScript types it from its context.
   */
  private contextualOwner(file: ParsedFile, name: SyntaxNode, depth: number): Owner | null {
    if (depth > MAX_DEPTH) return null;
    let parameter = name;
    while (parameter.parent && parameter.parent.type !== 'formal_parameters' && !FUNCTION_NODES.has(parameter.parent.type)) parameter = parameter.parent;
    // A destructured parameter (`({ a }) => …`) is a member of the type, not the type.
    if (parameter.id !== name.id && parameter.childForFieldName('pattern')?.id !== name.id) return null;
    const callback = parameter.parent?.type === 'formal_parameters' ? parameter.parent.parent : parameter.parent;
    const args = callback?.parent;
    const call = args?.parent;
    if (!callback || args?.type !== 'arguments' || call?.type !== 'call_expression') return null;
    const argument = args.namedChildren.findIndex((arg) => arg.id === callback.id);
    const position = parameter.parent?.type === 'formal_parameters' ? namedParameters(parameter.parent).findIndex((one) => one.id === parameter.id) : 0;
    const callee = call.childForFieldName('function')!;
    const receiver = callee.type === 'member_expression' ? callee.childForFieldName('object') : null;
    const property = callee.type === 'member_expression' ? callee.childForFieldName('property') : null;
    const owner = receiver ? this.ownerOf(file, receiver, depth) : null;
    const found =
      callee.type === 'identifier'
        ? this.nameIn(file, callee, callee.text, depth + 1)
        : owner && property
          ? this.memberOf(owner, property.text, depth + 1, new Set())
          : [];
    for (const one of this.fittingFirst(found, call, file)) {
      if (!('file' in one) || !one.node.parent) continue;
      const declared = one.node.parent;
      const signature = SIGNATURE_NODES.has(declared.type) ? { file: one.file, node: declared } : this.callable(one.file, one.binding?.type ?? null, depth + 1);
      const expected = signature && namedParameters(signature.node.childForFieldName('parameters'))[argument]?.childForFieldName('type');
      const callbackType = expected ? this.callable(signature.file, expected, depth + 1) : null;
      const type = callbackType && namedParameters(callbackType.node.childForFieldName('parameters'))[position]?.childForFieldName('type');
      const named = type && rulesOf(callbackType.file).namedType(type);
      if (named) return this.classOnly(this.ownerOf(callbackType.file, named, depth + 1));
    }
    return null;
  }

  /** What a type calls with: a function type, or the first call signature of the interface or object type it names; null when neither. */
  private callable(file: ParsedFile, type: SyntaxNode | null, depth: number): { file: ParsedFile; node: SyntaxNode } | null {
    if (!type || depth > MAX_DEPTH) return null;
    if (type.type === 'type_annotation' || type.type === 'parenthesized_type') return this.callable(file, type.namedChildren[0] ?? null, depth);
    if (type.type === 'function_type') return { file, node: type };
    if (type.type === 'object_type') {
      const signature = type.namedChildren.find((member) => member.type === 'call_signature');
      return signature ? { file, node: signature } : null;
    }
    const named = type.type === 'generic_type' ? type.childForFieldName('name') : type.type === 'type_identifier' ? type : null;
    if (!named) return null;
    for (const one of this.nameIn(file, named, named.text, depth + 1)) {
      if (!('file' in one) || !one.node.parent) continue;
      const declaration = one.node.parent;
      if (declaration.type === 'type_alias_declaration') return this.callable(one.file, declaration.childForFieldName('value'), depth + 1);
      const signature =
        declaration.type === 'interface_declaration'
          ? declaration.childForFieldName('body')?.namedChildren.find((member) => member.type === 'call_signature')
          : null;
      if (signature) return { file: one.file, node: signature };
    }
    return null;
  }

  /** An owner's members named `name`, its bases searched when it declares none. */
  private memberOf(cutOwner: Owner, name: string, depth: number, seen: Set<number>): Found[] {
    if (cutOwner.kind === 'module') return this.moduleMember(cutOwner.path, name, depth + 1);
    // A class whose body a cut parse left out: its members are read from the whole file.
    const whole = this.uncut(cutOwner.file, cutOwner.node);
    if (!whole) return [];
    const owner = { ...cutOwner, ...whole };
    if (depth > MAX_DEPTH || seen.has(owner.node.id)) return [];
    seen.add(owner.node.id);
    const rules = rulesOf(owner.file);
    const own = owner.basesOnly ? [] : rules.members(owner.node, name);
    if (own.length > 0) return own.map((binding) => ({ how: 'receiver' as const, file: owner.file, node: binding.name, binding }));
    if (owner.node.type === 'intersection_type') {
      // `A & B & { … }`: the members of each named part too.
      for (const part of owner.node.namedChildren) {
        const named = part.type === 'object_type' ? null : rules.namedType(part);
        const partOwner = named ? this.classOnly(this.ownerOf(owner.file, named, depth + 1)) : null;
        const found = partOwner ? this.memberOf(partOwner, name, depth + 1, seen) : [];
        if (found.length > 0) return found;
      }
    }
    if (owner.kind !== 'class') return [];
    for (const base of rules.bases(owner.node)) {
      const baseOwner = this.classOnly(this.ownerOf(owner.file, base, depth + 1));
      const found = baseOwner ? this.memberOf(baseOwner, name, depth + 1, seen) : [];
      if (found.length > 0) return found.map((one) => ({ ...one, how: 'receiver' as const }));
    }
    return [];
  }

  private definitionOf(found: Found): AtDefinition {
    if ('module' in found) return { path: found.path, line: 1, column: 1, kind: 'module', signature: found.path, doc: '', how: found.how };
    if ('definition' in found) {
      const { definition, path } = found;
      return {
        path,
        line: definition.line,
        column: this.columnIn(path, definition),
        kind: definition.kind,
        signature: definition.signature,
        doc: definition.doc,
        how: found.how,
      };
    }
    const { line, column } = found.file.position(found.node);
    const name = found.node.text;
    const recorded = this.definitionsOf(found.file.path).find((definition) => definition.line === line && definition.name === name);
    const text = (found.file.lines[line - 1] ?? '').trim();
    return {
      path: found.file.path,
      line,
      column,
      kind: recorded?.kind ?? found.binding?.kind ?? 'variable',
      signature: recorded?.signature ?? (text.length > 160 ? `${text.slice(0, 159)}…` : text),
      doc: recorded?.doc ?? '',
      how: found.how,
    };
  }

  private columnIn(path: string, definition: Definition): number {
    const lines = this.view.renderPart(path);
    const text = lines?.lineTexts[lines.lineNumbers.indexOf(definition.line)] ?? '';
    const at = [...identifiersIn(text)].find((match) => match[0] === definition.name);
    return at ? at.index + 1 : 1;
  }

  /**
   * Every definition of the name in files of the same language family: for `x.name` members
   * first; then files this one imports, this file, the file a test file is named for
   * (`store.test.ts`, `test_store.py`: `store.ts`, `store.py`), the rest by rank.
   */
  private async nameOnly(path: string, name: string, member: boolean): Promise<AtDefinition[]> {
    const tables = await this.view.tables();
    const family = familyOf(path);
    const imported = new Set((this.written.get(path) ?? []).flat());
    const subject = testSubjectOf(path);
    const place = (definer: string) => (imported.has(definer) ? 0 : definer === path ? 1 : subject !== null && moduleNameOf(definer) === subject ? 2 : 3);
    const candidates: { path: string; definition: Definition; order: number[] }[] = [];
    for (const slot of definerSlots(tables, name)) {
      const definer = pathOfSlot(tables, slot);
      if (familyOf(definer) !== family) continue;
      const definitions = this.definitionsOf(definer);
      const rank = await this.view.fileRank(definer);
      for (const { line } of definitionsOfSlot(tables, slot)) {
        const definition = definitions.find((one) => one.line === line && one.name === name);
        if (!definition) continue;
        // For `x.name`, a declared member beats a name merely nested in a scope (a function's local).
        const memberKind = MEMBER_KINDS.has(definition.kind);
        const nested = memberKind || definition.scopeLines.length > 0;
        const fit = member ? (memberKind ? 0 : nested ? 1 : 2) : nested ? 1 : 0;
        candidates.push({ path: definer, definition, order: [fit, place(definer), -rank] });
      }
    }
    candidates.sort((a, b) => compareOrders(a.order, b.order) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.definition.line - b.definition.line));
    return candidates.slice(0, MAX_CANDIDATES).map(({ path, definition }) => this.definitionOf({ how: 'name-only', path, definition }));
  }

  private async references(from: string, name: string, max: number): Promise<{ references: AtReference[]; files: number }> {
    const tables = await this.view.tables();
    const family = familyOf(from);
    const files = referencersOf(tables, name)
      .map(({ fileId }) => tables.paths[fileId]!)
      .filter((path) => familyOf(path) === family);
    if (max === 0) return { references: [], files: files.length };
    const ranked = await Promise.all(files.map(async (path) => ({ path, rank: await this.view.fileRank(path) })));
    ranked.sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : 1));
    const references: AtReference[] = [];
    for (const { path } of ranked) {
      // The references alone: a whole record decodes its definitions, imports and terms too.
      const tagged = this.referencesIn(path);
      if (!tagged) continue;
      let last = 0;
      tagged.names.forEach((referenced, at) => {
        const line = tagged.lines[at]!;
        if (referenced === name && line > 0 && line !== last && references.length < max) references.push({ path, line });
        if (referenced === name) last = line;
      });
      if (references.length >= max) break;
    }
    return { references, files: files.length };
  }
}

function dedupe(definitions: AtDefinition[]): AtDefinition[] {
  const seen = new Set<string>();
  return definitions.filter((definition) => {
    const key = `${definition.path}:${definition.line}:${definition.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a Python file is the module `name` itself (`from . import name` naming name.py). */
function isModuleNamed(path: string, name: string): boolean {
  return path.endsWith('.py') && (basename(path) === `${name}.py` || (basename(path) === '__init__.py' && basename(dirname(path)) === name));
}

/** The scopes around a node, the module's always last: a parse error can cut a node off from its root. */
function scopesOf(file: ParsedFile, node: SyntaxNode): SyntaxNode[] {
  const scopes = rulesOf(file).scopes(node);
  return scopes.at(-1)?.id === file.root.id ? scopes : [...scopes, file.root];
}

/** A file's name without its folder and extension (a declaration file's `.d` too). */
function moduleNameOf(path: string): string {
  return basename(path).replace(/(\.d)?\.[^.]+$/, '');
}

/** For a test file by the common conventions (`x.test.js`, `x.spec.ts`, `x_test.py`, `test_x.py`), the module name it tests; null for any other file. */
function testSubjectOf(path: string): string | null {
  const name = moduleNameOf(path);
  const subject = name.replace(/[._-](test|spec)s?$/, '').replace(/^(test|spec)s?[._-]/, '');
  return subject !== name && subject !== '' ? subject : null;
}

/** The language family a path's names live in: Python's and ECMAScript's are each one namespace of files. */
function familyOf(path: string): string {
  const language = languageOf(path);
  return language ? FAMILY_OF[language] : '';
}

function compareOrders(a: readonly number[], b: readonly number[]): number {
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return a[at]! - b[at]!;
  return 0;
}

/** The return type a declaration states: a function's, a function-typed property's or variable's, an arrow function's. */
function returnTypeOf(declaration: SyntaxNode): SyntaxNode | null {
  const own = declaration.childForFieldName('return_type');
  if (own) return own;
  const typed = declaration.childForFieldName('type')?.namedChildren[0];
  if (typed?.type === 'function_type') return typed.childForFieldName('return_type');
  return declaration.childForFieldName('value')?.childForFieldName('return_type') ?? null;
}

/** The `types` condition of a manifest's `exports` for the package itself (`exports['.']`, or conditions at the top). */
function declaredTypes(exported: unknown): string | undefined {
  if (exported === null || typeof exported !== 'object' || Array.isArray(exported)) return undefined;
  const entries = exported as Record<string, unknown>;
  const own = '.' in entries ? entries['.'] : Object.keys(entries).some((key) => key.startsWith('.')) ? undefined : entries;
  if (own === null || typeof own !== 'object' || Array.isArray(own)) return undefined;
  for (const [condition, value] of Object.entries(own as Record<string, unknown>)) {
    if (condition === 'types' && typeof value === 'string') return value;
    const nested = ['import', 'require', 'node', 'default'].includes(condition) ? declaredTypes({ '.': value }) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

function sameLines(a: Uint8Array, b: Uint8Array | null): boolean {
  return b !== null && a.length === b.length && a.every((value, at) => value === b[at]);
}

/** Nodes that are a function with parameters: a callback's parameter list's parent. */
const FUNCTION_NODES = new Set(['arrow_function', 'function_expression', 'function']);
/** Declarations whose own parameters a call takes: a function's or method's, and a type's call signature. */
const SIGNATURE_NODES: ReadonlySet<string> = new Set([...SIGNATURES, 'call_signature']);
