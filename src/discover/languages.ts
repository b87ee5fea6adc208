import type { Language } from '../record/fileRecord.js';

const LANGUAGE_BY_EXTENSION: ReadonlyMap<string, Language> = new Map([
  ['.py', 'python'],
  ['.js', 'javascript'],
  ['.jsx', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  ['.ts', 'typescript'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
  ['.tsx', 'tsx'],
  ['.rs', 'rust'],
  ['.go', 'go'],
  ['.java', 'java'],
]);

/** The language of a path by its extension, or null for files we have no grammar for. */
export function languageOf(path: string): Language | null {
  const dot = path.lastIndexOf('.');
  if (dot <= path.lastIndexOf('/')) return null;
  const extension = path.slice(dot);
  return LANGUAGE_BY_EXTENSION.get(extension) ?? LANGUAGE_BY_EXTENSION.get(extension.toLowerCase()) ?? null;
}

/** Names of the manifests import resolution reads (src/imports/): workspaces, modules, crates. */
const IMPORT_MANIFESTS: ReadonlySet<string> = new Set(['lerna.json', 'pnpm-workspace.yaml', 'go.mod', 'go.work', 'Cargo.toml']);

/**
 * Whether import resolution may read the file: a manifest above, or JSON (package.json,
 * tsconfig.json and whatever a tsconfig `extends`). Its record has no tags, yet what is derived
 * from all records depends on its bytes.
 */
export function configuresImports(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return IMPORT_MANIFESTS.has(name) || name.toLowerCase().endsWith('.json');
}
