import { languageOf } from '../../dist/src/discover/languages.js';
import type { ImportingFile } from '../../dist/src/imports/importGraph.js';
import { importingFileOf } from '../../dist/src/imports/importingFile.js';
import { type ResolvedImports, resolveImports } from '../../dist/src/imports/resolveImports.js';
import { extractFixture, listFiles } from './fixtureTags.js';

/**
 * Every file of a fixture as the resolvers see it: records extracted in this thread, manifests
 * without any; `indexed` narrows what counts as indexed, as `repomap index` would list it.
 */
export function importingFiles(dir: string, indexed: (path: string) => boolean = () => true): ImportingFile[] {
  const records = new Map(extractFixture(dir, indexed).map((record) => [record.path, record]));
  return listFiles(dir)
    .filter(indexed)
    .map((path) => importingFileOf(path, languageOf(path), records.get(path)));
}

/** Per file with imports, per import entry as written, the files it resolved to. */
export type TargetsByFile = Record<string, Record<string, readonly string[]>>;

export function targetsByFile(files: readonly ImportingFile[], resolved: ResolvedImports): TargetsByFile {
  const byFile: TargetsByFile = {};
  files.forEach((file, id) => {
    if (file.imports.modules.length === 0) return;
    byFile[file.path] = Object.fromEntries(file.imports.modules.map((module, entry) => [module, resolved.targets[id]![entry]!]));
  });
  return byFile;
}

/** The fixture's imports resolved, with the resolution itself for its graph and counts. */
export async function resolveFixture(dir: string): Promise<{ files: ImportingFile[]; resolved: ResolvedImports; targets: TargetsByFile }> {
  const files = importingFiles(dir);
  const resolved = await resolveImports(dir, files);
  return { files, resolved, targets: targetsByFile(files, resolved) };
}
