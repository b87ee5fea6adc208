import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type Parser from 'tree-sitter';
import type { Language } from './record/fileRecord.js';

/** The grammars' native languages for node-tree-sitter, loaded without what only its own node classes read. */

/** The class of a node object (the typings declare only its instances). */
export type NodeClass = new (tree: Parser.Tree) => Parser.SyntaxNode;

/** node-tree-sitter's JavaScript module and the native binding under it, which its wrappers hide. */
export interface TreeSitterModules {
  treeSitter: typeof Parser & { SyntaxNode: NodeClass };
  binding: Record<string, unknown>;
}

const require = createRequire(import.meta.url);
let modules: TreeSitterModules | null | undefined;

/** The binding module tree-sitter loaded (the same file from the same cache, so the same object); null when it cannot be reached. */
export function treeSitterModules(): TreeSitterModules | null {
  if (modules !== undefined) return modules;
  try {
    const treeSitterMain = require.resolve('tree-sitter');
    const requireFromTreeSitter = createRequire(treeSitterMain);
    modules = {
      treeSitter: requireFromTreeSitter('tree-sitter') as TreeSitterModules['treeSitter'],
      binding: requireFromTreeSitter('node-gyp-build')(dirname(treeSitterMain)) as Record<string, unknown>,
    };
  } catch {
    modules = null;
  }
  return modules;
}

/** The npm package of each language's grammar, and its member where one package holds two. */
const GRAMMAR_PACKAGES: Record<Language, { name: string; member?: 'typescript' | 'tsx' }> = {
  python: { name: 'tree-sitter-python' },
  javascript: { name: 'tree-sitter-javascript' },
  typescript: { name: 'tree-sitter-typescript', member: 'typescript' },
  tsx: { name: 'tree-sitter-typescript', member: 'tsx' },
  rust: { name: 'tree-sitter-rust' },
  go: { name: 'tree-sitter-go' },
  java: { name: 'tree-sitter-java' },
};

const grammars = new Map<Language, Parser.Language>();

/**
 * A language's grammar, loaded as its package's main loads it (node-gyp-build) but without the
 * node-types.json the main adds (50–110 KB of JSON, both dialects' for TypeScript), and given its
 * node classes before a parser takes it (see `setNodeClasses`): 13–23 ms less of a thread's first
 * file of a language.
 */
export function loadGrammar(language: Language): Parser.Language {
  let grammar = grammars.get(language);
  if (grammar) return grammar;
  const { name, member } = GRAMMAR_PACKAGES[language];
  const loadBinding = require('node-gyp-build') as (folder: string) => Record<string, Parser.Language>;
  const native = loadBinding(dirname(require.resolve(`${name}/package.json`)));
  grammar = member ? native[member]! : (native as unknown as Parser.Language);
  setNodeClasses(grammar);
  grammars.set(language, grammar);
  return grammar;
}

/**
 * A node class per node type, as `setLanguage` makes them when they are missing but without
 * compiling a `Function` for each and searching node-types.json for it: each class names its type,
 * as tree-sitter's do, with none of the field getters theirs add, which nothing here reads. Left to
 * tree-sitter (a class that reads the type from the tree) if its binding is not laid out as expected.
 */
function setNodeClasses(grammar: Parser.Language): void {
  const found = treeSitterModules();
  if (typeof found?.binding.getNodeTypeNamesById !== 'function') return;
  const names = found.binding.getNodeTypeNamesById(grammar) as ArrayLike<string | null | undefined>;
  const { SyntaxNode } = found.treeSitter;
  const classes: NodeClass[] = [];
  for (let id = 0; id < names.length; id++) {
    const type = names[id];
    if (!type) {
      classes.push(SyntaxNode);
      continue;
    }
    const TypeNode = class extends SyntaxNode {};
    Object.defineProperty(TypeNode.prototype, 'type', { value: type, enumerable: true });
    classes.push(TypeNode);
  }
  (grammar as unknown as { nodeSubclasses: NodeClass[] }).nodeSubclasses = classes;
}
