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
  return LANGUAGE_BY_EXTENSION.get(path.slice(dot).toLowerCase()) ?? null;
}
