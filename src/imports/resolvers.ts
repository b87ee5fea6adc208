import type { Language } from '../record/fileRecord.js';
import type { LanguageResolver } from './importGraph.js';

/** The languages that share one resolver (TypeScript imports JavaScript and back). */
export type Family = 'python' | 'ecmascript' | 'go' | 'rust' | 'java';

export const FAMILY_OF: Record<Language, Family> = {
  python: 'python',
  javascript: 'ecmascript',
  typescript: 'ecmascript',
  tsx: 'ecmascript',
  go: 'go',
  rust: 'rust',
  java: 'java',
};

/** Each family's resolver, loaded only when a repository has files of it. */
export const RESOLVERS: Partial<Record<Family, () => Promise<LanguageResolver>>> = {
  python: async () => (await import('./pythonImports.js')).resolvePythonImports,
  ecmascript: async () => (await import('./ecmascriptImports.js')).resolveEcmascriptImports,
  go: async () => (await import('./goImports.js')).resolveGoImports,
  java: async () => (await import('./javaImports.js')).resolveJavaImports,
  rust: async () => (await import('./rustImports.js')).resolveRustImports,
};
