import { languageOf } from '../../dist/src/discover/languages.js';
import type { ImportingFile } from '../../dist/src/imports/importGraph.js';
import { moduleNamesOf } from '../../dist/src/imports/reExports.js';
import { type ResolvedImports, resolveImports } from '../../dist/src/imports/resolveImports.js';
import { extractFixture, listFiles } from './fixtureTags.js';

/** Per importing file, per module as written, the repository files it names. */
export type TargetsByModule = Record<string, Record<string, readonly string[]>>;

/**
 * The imports of every source file below `root` resolved as a map resolves them: every file
 * below `root` counts as indexed, as `repomap index` would list it (`indexed` narrows that).
 */
export async function resolveFixture(root: string, indexed: (path: string) => boolean = () => true): Promise<ResolvedImports & { byModule: TargetsByModule }> {
  const records = new Map(extractFixture(root, indexed).map((record) => [record.path, record]));
  const files: ImportingFile[] = listFiles(root)
    .filter(indexed)
    .map((path) => {
      const record = records.get(path);
      return {
        path,
        language: languageOf(path),
        imports: record?.imports ?? { modules: [], names: [] },
        packageName: record?.packageName ?? '',
        definedNames: moduleNamesOf(record?.definitions ?? []),
      };
    });
  const resolved = await resolveImports(root, files);
  const byModule: TargetsByModule = {};
  files.forEach((file, id) => {
    if (file.imports.modules.length === 0) return;
    byModule[file.path] = Object.fromEntries(file.imports.modules.map((module, entry) => [module, resolved.targets[id]![entry]!]));
  });
  return { ...resolved, byModule };
}
