import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type ParserType from 'tree-sitter';
import { queriesDir } from '../src/packageFiles.js';
import type { Language } from '../src/record/fileRecord.js';
import { loadGrammar } from '../src/treeSitterGrammars.js';

const require = createRequire(import.meta.url);
// The binding is CommonJS: required, it loads in 2–3 ms of each worker's start, imported in 7–8.
const Parser = require('tree-sitter') as typeof ParserType;
type Parser = ParserType;

export interface Grammar {
  language: Language;
  parser: Parser;
  tagsQuery: ParserType.Query;
  /** Lazily compiled: most files never need the identifier fallback. */
  identsQuery: () => ParserType.Query;
}

/**
 * Reads `<name>.scm`, first splicing in the files named on its leading `; inherits: a, b` line
 * (nvim-treesitter's convention), so TypeScript and TSX share the JavaScript patterns.
 */
export function readQuerySource(name: string, seen: Set<string> = new Set()): string {
  if (seen.has(name)) return '';
  seen.add(name);
  const own = readFileSync(join(queriesDir(), `${name}.scm`), 'utf8');
  const inherits = /^;\s*inherits:\s*(.+)$/m.exec(own.split('\n', 1)[0] ?? '');
  if (!inherits) return own;
  const parents = inherits[1]!
    .split(',')
    .map((parent) => parent.trim())
    .filter(Boolean);
  return `${parents.map((parent) => readQuerySource(parent, seen)).join('\n')}\n${own}`;
}

const grammars = new Map<Language, Grammar>();

/** The grammar, parser and compiled queries of a language, loaded on first use in this thread. */
export function grammarFor(language: Language): Grammar {
  let grammar = grammars.get(language);
  if (grammar) return grammar;
  const treeSitterLanguage = loadGrammar(language);
  const parser = new Parser();
  parser.setLanguage(treeSitterLanguage);
  const tagsQuery = new Parser.Query(treeSitterLanguage, readQuerySource(`${language}-tags`));
  let identsQuery: ParserType.Query | undefined;
  grammar = {
    language,
    parser,
    tagsQuery,
    identsQuery: () => (identsQuery ??= new Parser.Query(treeSitterLanguage, readQuerySource(`${language}-idents`))),
  };
  grammars.set(language, grammar);
  return grammar;
}
