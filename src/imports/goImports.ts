import type { LanguageResolver, Repository } from './importGraph.js';
import { ancestorsOf, baseNameOf, childPath, folderOf } from './repositoryPaths.js';

/** A Go module of the repository: its path (`example.com/shop`) and folder (relative, '' for the root). */
interface GoModule {
  path: string;
  folder: string;
}

/**
 * Go: an import path names a package folder through the `go.mod` whose module path is its
 * longest prefix (nested modules included); its targets are the folder's non-test `.go` files.
 * A path no module claims resolves to `vendor/<path>` of the importing file's module when
 * that folder is indexed (vendored code is part of the repository); else (standard library,
 * third party) to nothing. The standard library's own `module std` claims the paths whose
 * first element has no dot, as the go command has it. A file under no go.mod is read in GOPATH
 * mode, the root taken for a `src` folder (GOPATH's or GOROOT's): its import paths are folders
 * from the root. (Inside modules that rule would tie `log` to any top-level `log/` folder.)
 */
export const resolveGoImports: LanguageResolver = (files, repository) => {
  const packages = packageFilesOf(repository.paths);
  const modules = goModulesOf(repository);
  const targets = files.map((file) => {
    const home = moduleOfFile(modules, file.path);
    return file.imports.modules.map((importPath) => {
      const claimed = claimingFolder(modules, importPath);
      const inModule = claimed === undefined ? undefined : packages.get(claimed);
      if (inModule) return inModule;
      return packages.get(home ? childPath(home.folder, `vendor/${importPath}`) : importPath) ?? [];
    });
  });
  return { targets };
};

/** Non-test `.go` files by folder, in path order. */
function packageFilesOf(paths: ReadonlySet<string>): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  for (const path of paths) {
    if (!path.endsWith('.go') || path.endsWith('_test.go')) continue;
    const folder = folderOf(path);
    const files = packages.get(folder);
    if (files) files.push(path);
    else packages.set(folder, [path]);
  }
  for (const files of packages.values()) files.sort();
  return packages;
}

/**
 * The repository's go.mod files, longest module path first. They are indexed like any file;
 * when none is (a sample of a tree, an export), the folders holding Go files and their
 * ancestors are probed, one failed read each.
 */
function goModulesOf(repository: Repository): GoModule[] {
  let manifests = [...repository.paths].filter((path) => baseNameOf(path) === 'go.mod');
  if (manifests.length === 0) {
    const folders = new Set<string>();
    for (const path of repository.paths) {
      if (!path.endsWith('.go')) continue;
      for (const folder of ancestorsOf(folderOf(path))) {
        if (folders.has(folder)) break;
        folders.add(folder);
      }
    }
    manifests = [...folders].map((folder) => childPath(folder, 'go.mod'));
  }
  const modules: GoModule[] = [];
  for (const manifest of manifests) {
    const text = repository.readText(manifest);
    const path = text === undefined ? undefined : modulePathOf(text);
    if (path) modules.push({ path, folder: folderOf(manifest) });
  }
  return modules.sort((a, b) => b.path.length - a.path.length || (a.folder < b.folder ? -1 : 1));
}

function modulePathOf(goMod: string): string | undefined {
  return /^\s*module\s+"?([^\s"/][^\s"]*)"?\s*(?:\/\/.*)?$/m.exec(goMod)?.[1];
}

/** The folder an import path names inside the repository's modules, if one claims it. */
function claimingFolder(modules: readonly GoModule[], importPath: string): string | undefined {
  for (const module of modules) {
    if (importPath === module.path) return module.folder;
    if (importPath.startsWith(`${module.path}/`)) return childPath(module.folder, importPath.slice(module.path.length + 1));
  }
  const first = importPath.split('/', 1)[0]!;
  if (first.includes('.')) return undefined;
  const std = modules.find((module) => module.path === 'std');
  return std ? childPath(std.folder, importPath) : undefined;
}

/** The module a file belongs to: the one whose folder is its nearest ancestor. */
function moduleOfFile(modules: readonly GoModule[], path: string): GoModule | undefined {
  let best: GoModule | undefined;
  for (const module of modules) {
    if (module.folder !== '' && !path.startsWith(`${module.folder}/`)) continue;
    if (!best || module.folder.length > best.folder.length) best = module;
  }
  return best;
}
