import { languageOf } from '../discover/languages.js';
import { UsageError } from '../errors.js';
import type { Definition, Language, RankPart, RenderPart } from '../record/fileRecord.js';
import type { RepoView } from './repoView.js';

/**
 * Qualified names as the records know them: a definition's enclosing scopes (the definitions
 * around it, a Rust `impl` header, a Go method's receiver) under its file's module path.
 */

/** `Cart.add` → qualifier ['Cart'], name 'add'; `mod::Type` splits on `::`; a plain name has no qualifier. */
export function splitQualifiedName(query: string): { qualifier: string[]; name: string } {
  const parts = query.includes('::') ? query.split('::') : query.split('.');
  if (parts.some((part) => part.trim() === '' || part !== part.trim()))
    throw new UsageError(`'${query}' is not a name or a qualified name (Class.method, pkg.Func, mod::Type)`);
  return { qualifier: parts.slice(0, -1), name: parts.at(-1)! };
}

/** A file's definitions and their enclosing names, decoded on first use (the render part only for Rust's `impl` headers). */
export class ScopeReader {
  readonly language: Language | null;
  private rank: RankPart | undefined | null = null;
  private render: RenderPart | undefined | null = null;

  constructor(
    private readonly view: RepoView,
    readonly path: string,
  ) {
    this.language = languageOf(path);
  }

  definitions(): readonly Definition[] {
    this.rank ??= this.view.rankPart(this.path);
    return this.rank?.definitions ?? [];
  }

  packageName(): string {
    this.definitions();
    return this.rank?.packageName ?? '';
  }

  /** The enclosing names of the definition of `name` at `line`; [] when the record has none there. */
  enclosingAt(name: string, line: number): string[] {
    const definition = this.definitions().find((candidate) => candidate.name === name && candidate.line === line);
    return definition ? this.enclosing(definition) : [];
  }

  /**
   * The names enclosing a definition, outermost first: the definitions of its file whose span
   * holds its own, the type of a Rust `impl` header among its scope lines, a Go method's receiver type.
   */
  enclosing(definition: Definition): string[] {
    const around: { line: number; name: string }[] = [];
    for (const outer of this.definitions()) {
      if (outer === definition || outer.endLine <= outer.line) continue;
      const holds =
        outer.line <= definition.line && outer.endLine >= definition.endLine && (outer.line < definition.line || outer.endLine > definition.endLine);
      if (holds) around.push({ line: outer.line, name: outer.name });
    }
    if (this.language === 'rust') {
      for (const line of definition.scopeLines) {
        const type = implType(this.storedLine(line) ?? '');
        if (type) around.push({ line, name: type });
      }
    }
    if (this.language === 'go') {
      const receiver = /^func\s*\(\s*(?:\w+\s+)?\*?\s*(\w+)/.exec(definition.signature)?.[1];
      if (receiver) around.push({ line: definition.line, name: receiver });
    }
    around.sort((a, b) => a.line - b.line);
    return around.map(({ name }) => name);
  }

  /** A line's text from the record's renderable lines (definition and scope header lines are among them). */
  storedLine(line: number): string | undefined {
    this.render ??= this.view.renderPart(this.path);
    const numbers = this.render?.lineNumbers ?? [];
    let low = 0;
    let high = numbers.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = numbers[middle]!;
      if (at === line) return this.render!.lineTexts[middle]!;
      if (at < line) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
}

/** Whether the qualifier's parts end the definition's qualified name (its file's module path, then its enclosing names). */
export function qualifierMatches(file: ScopeReader, scope: readonly string[], qualifier: readonly string[]): boolean {
  return moduleNames(file).some((module) => endsWith([...module, ...scope], qualifier));
}

function endsWith(parts: readonly string[], tail: readonly string[]): boolean {
  if (tail.length > parts.length) return false;
  const from = parts.length - tail.length;
  return tail.every((part, i) => parts[from + i] === part);
}

/** The file stems that name their folder's module rather than one of their own. */
const FOLDER_MODULES = new Set(['__init__', 'index', 'mod', 'lib', 'main']);

/**
 * The ways a file's module is named, each as parts: its path without the extension (its folder
 * for `__init__.py`, `index.ts`, `mod.rs`, …); Rust's from `crate` (what follows `src/`); Go's
 * package is its folder (or the name its package clause gives); Java's the declared package.
 */
function moduleNames(file: ScopeReader): string[][] {
  const parts = file.path.split('/');
  const stem = parts.at(-1)!.replace(/\.[^.]*$/, '');
  const folder = parts.slice(0, -1);
  switch (file.language) {
    case 'go': {
      const clause = file.definitions().find((definition) => definition.kind === 'module')?.name;
      return clause ? [folder, [clause]] : [folder];
    }
    case 'java':
      return [file.packageName() === '' ? [] : file.packageName().split('.')];
    case 'rust': {
      const module = FOLDER_MODULES.has(stem) ? folder : [...folder, stem];
      const src = module.lastIndexOf('src');
      return src < 0 ? [module] : [module, ['crate', ...module.slice(src + 1)]];
    }
    default:
      return [FOLDER_MODULES.has(stem) ? folder : [...folder, stem]];
  }
}

/** `impl<T: X> Trait for path::Type<T> {` → `Type`; undefined for a line that opens no impl. */
function implType(text: string): string | undefined {
  const head = /^\s*(?:unsafe\s+)?impl\b\s*/.exec(text);
  if (!head) return undefined;
  let rest = text.slice(head[0].length);
  if (rest.startsWith('<')) rest = rest.slice(closingAngle(rest) + 1);
  const forAt = rest.search(/\sfor\s/);
  if (forAt >= 0) rest = rest.slice(forAt + 5);
  return /^\s*(?:&\s*(?:mut\s+)?|dyn\s+)?(?:[\w]+::)*(\w+)/.exec(rest)?.[1];
}

/** The index of the `>` closing the `<` at 0 (the text's end when none does). */
function closingAngle(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '<') depth++;
    else if (text[i] === '>' && text[i - 1] !== '-' && --depth === 0) return i;
  }
  return text.length;
}
