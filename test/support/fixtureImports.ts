import { type ResolvedImports, resolveImports } from '../../dist/src/imports/resolveImports.js';
import { importingFiles, type TargetsByFile, targetsByFile } from './importTargets.js';

/**
 * The imports of every source file below `root` resolved as a map resolves them: every file
 * below `root` counts as indexed, as `repomap index` would list it (`indexed` narrows that).
 */
export async function resolveFixture(root: string, indexed: (path: string) => boolean = () => true): Promise<ResolvedImports & { byModule: TargetsByFile }> {
  const files = importingFiles(root, indexed);
  const resolved = await resolveImports(root, files);
  return { ...resolved, byModule: targetsByFile(files, resolved) };
}
