import { realpathSync } from 'node:fs';
import { DEFAULTS } from '../defaults.js';
import { readSourceBytes } from '../indexing/openSource.js';
import type { ImportCounts, ImportGraph, ImportingFile, Repository } from './importGraph.js';
import { followReExports } from './reExports.js';
import { FAMILY_OF, type Family, RESOLVERS } from './resolvers.js';

export interface ResolvedImports {
  graph: ImportGraph;
  /** Per language family, import entries and how many named a repository file. */
  counts: Record<Family, ImportCounts>;
  /** Per file id, per import entry, the paths it names: for tools and tests. */
  targets: (readonly string[])[][];
  /** The same before re-export hubs are seen through: the module each entry names itself. */
  written: (readonly string[])[][];
}

/**
 * Every file's imports resolved to repository files, each language by its own rules
 * (./resolvers), as a graph over the ids of `files` (which come in path order).
 */
export async function resolveImports(root: string, files: readonly ImportingFile[]): Promise<ResolvedImports> {
  const repository = repositoryOf(root, files);
  const byFamily = new Map<Family, number[]>();
  files.forEach((file, fileId) => {
    // Files without imports too: Java's resolver finds classes by every file's declared package.
    if (!file.language) return;
    const family = FAMILY_OF[file.language];
    const ids = byFamily.get(family);
    if (ids) ids.push(fileId);
    else byFamily.set(family, [fileId]);
  });
  const targets: (readonly string[])[][] = files.map(() => []);
  const written: (readonly string[])[][] = files.map(() => []);
  const counts = { python: none(), ecmascript: none(), go: none(), rust: none(), java: none() };
  for (const [family, ids] of byFamily) {
    const load = RESOLVERS[family];
    const resolver = load ? await load() : null;
    const familyFiles = ids.map((id) => files[id]!);
    const resolution = resolver ? resolver(familyFiles, repository) : { targets: familyFiles.map((file) => file.imports.modules.map(() => [])) };
    const resolved = resolution.hubs ? followReExports(familyFiles, resolution.targets, resolution.hubs) : resolution.targets;
    ids.forEach((id, i) => {
      targets[id] = resolved[i]!;
      written[id] = resolution.targets[i]!;
      counts[family].entries += resolved[i]!.length;
      for (const entry of resolved[i]!) if (entry.length > 0) counts[family].resolved++;
    });
  }
  return { graph: graphOf(files, targets), counts, targets, written };
}

function none(): ImportCounts {
  return { entries: 0, resolved: 0 };
}

function graphOf(files: readonly ImportingFile[], targets: readonly (readonly string[])[][]): ImportGraph {
  const idOf = new Map(files.map((file, id) => [file.path, id]));
  const importOffsets = new Int32Array(files.length + 1);
  const lists: Int32Array[] = [];
  files.forEach((_, id) => {
    const linked = new Set<number>();
    for (const entry of targets[id]!) {
      for (const path of entry) {
        const target = idOf.get(path);
        if (target !== undefined && target !== id) linked.add(target);
      }
    }
    const list = Int32Array.from(linked).sort();
    lists.push(list);
    importOffsets[id + 1] = importOffsets[id]! + list.length;
  });
  const importTargets = new Int32Array(importOffsets[files.length]!);
  lists.forEach((list, id) => {
    importTargets.set(list, importOffsets[id]!);
  });
  return { importOffsets, importTargets };
}

function repositoryOf(root: string, files: readonly ImportingFile[]): Repository {
  const paths = new Set(files.map((file) => file.path));
  let realRoot: string | null = null;
  return {
    root,
    paths,
    readText(path) {
      try {
        realRoot ??= realpathSync(root);
      } catch {
        return undefined;
      }
      // A manifest is a source file's size at most; one reached out of the root is not the repository's.
      return readSourceBytes(realRoot, path, DEFAULTS.maxFileBytes).bytes?.toString('utf8');
    },
  };
}
