import type { ImportingFile, LanguageResolver, Repository } from './importGraph.js';

/**
 * Python imports to repository files. An absolute module is looked for where Python's path
 * would find it: the importing file's home (the folder above its top-most package, or its own
 * folder when it is in no package), the root, then the package roots (folders, themselves no
 * package, that hold the imported top-level package: `src/` in a src-layout), nearest first.
 * A relative module counts up from the importing file's package. `from m import n` names the
 * submodule `m/n` where there is one, else `m` itself. Standard library and third-party
 * modules name no file. A package's `__init__.py` is a hub: `from pkg import Session` names
 * the file that defines Session when `__init__.py` only imports it.
 */
export const resolvePythonImports: LanguageResolver = (files, repository) => {
  const layout = new PythonLayout(repository);
  const found = files.map((file) => file.imports.modules.map((module, i) => layout.resolve(file, module, file.imports.names[i] ?? [])));
  return {
    targets: found.map((entries) => entries.map((namesByTarget) => [...namesByTarget.keys()])),
    hubs: {
      isHub: (path) => path === '__init__.py' || path.endsWith('/__init__.py'),
      takenNames: (file, entry, target) => found[file]![entry]!.get(target) ?? [],
    },
  };
};

/** An entry's files, each with the names taken from it (`from pkg import sub, name`: `sub` from pkg/sub.py, `name` from pkg). */
type NamesByTarget = ReadonlyMap<string, readonly string[]>;

const NOTHING: NamesByTarget = new Map();

class PythonLayout {
  private readonly paths: ReadonlySet<string>;
  /** Per top-level package name, the folders (no package themselves) holding it as a regular package. */
  private readonly packageRoots = new Map<string, string[]>();
  /** Every folder holding a Python file at any depth: a module path that is neither one nor a file names nothing. */
  private readonly folders = new Set<string>();
  /** rootsFor's answers, by the importing file's folder and the top-level name. */
  private readonly roots = new Map<string, string[]>();

  constructor(repository: Repository) {
    this.paths = repository.paths;
    for (const path of this.paths) {
      if (!path.endsWith('.py')) continue;
      for (let dir = dirOf(path); dir !== '' && !this.folders.has(dir); dir = dirOf(dir)) this.folders.add(dir);
      if (!path.endsWith('/__init__.py')) continue;
      const packageDir = dirOf(path);
      const holder = dirOf(packageDir);
      if (this.isPackage(holder)) continue;
      const name = packageDir.slice(holder === '' ? 0 : holder.length + 1);
      const holders = this.packageRoots.get(name);
      if (holders) holders.push(holder);
      else this.packageRoots.set(name, [holder]);
    }
  }

  resolve(file: ImportingFile, module: string, names: readonly string[]): NamesByTarget {
    if (module.startsWith('.')) {
      const dots = module.length - module.replace(/^\.+/, '').length;
      let base = dirOf(file.path);
      for (let level = 1; level < dots; level++) {
        if (base === '') return NOTHING;
        base = dirOf(base);
      }
      return this.resolveAt(joinPath(base, module.slice(dots).replaceAll('.', '/')), names) ?? NOTHING;
    }
    const modulePath = module.replaceAll('.', '/');
    for (const root of this.rootsFor(file.path, module.split('.', 1)[0]!)) {
      const found = this.resolveAt(joinPath(root, modulePath), names);
      if (found) return found;
    }
    return NOTHING;
  }

  /** Where an absolute import of `top` is looked for from `path`, in order, without repeats. */
  private rootsFor(path: string, top: string): string[] {
    const dir = dirOf(path);
    const key = `${dir}\0${top}`;
    let roots = this.roots.get(key);
    if (roots) return roots;
    const home = this.homeOf(dir);
    roots = home === '' ? [''] : [home, ''];
    const holders = this.packageRoots.get(top) ?? [];
    const nearest = holders.length < 2 ? holders : [...holders].sort((a, b) => sharedLength(dir, b) - sharedLength(dir, a) || (a < b ? -1 : a > b ? 1 : 0));
    for (const holder of nearest) if (!roots.includes(holder)) roots.push(holder);
    this.roots.set(key, roots);
    return roots;
  }

  /** The folder Python puts on its path for a file in `dir`: the one above its top-most package. */
  private homeOf(dir: string): string {
    while (dir !== '' && this.isPackage(dir)) dir = dirOf(dir);
    return dir;
  }

  /**
   * The files `from <modulePath> import names` names (or `import <modulePath>` with no names);
   * null when neither the module nor any named submodule is a repository file.
   */
  private resolveAt(modulePath: string, names: readonly string[]): NamesByTarget | null {
    const moduleFile = this.moduleFile(modulePath);
    if (names.length === 0) return moduleFile ? new Map([[moduleFile, []]]) : null;
    if (!moduleFile && modulePath !== '' && !this.folders.has(modulePath)) return null;
    const found = new Map<string, string[]>();
    for (const name of names) {
      const submodule = this.moduleFile(joinPath(modulePath, name));
      const target = submodule ?? moduleFile;
      if (!target) continue;
      // A submodule is taken whole; a name of the module is taken from it.
      const taken = found.get(target) ?? [];
      if (!submodule) taken.push(name);
      found.set(target, taken);
    }
    return found.size > 0 ? found : null;
  }

  private moduleFile(modulePath: string): string | null {
    if (modulePath !== '') {
      const file = `${modulePath}.py`;
      if (this.paths.has(file)) return file;
    }
    const init = joinPath(modulePath, '__init__.py');
    return this.paths.has(init) ? init : null;
  }

  private isPackage(dir: string): boolean {
    return dir !== '' && this.paths.has(`${dir}/__init__.py`);
  }
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function joinPath(dir: string, rest: string): string {
  if (dir === '') return rest;
  return rest === '' ? dir : `${dir}/${rest}`;
}

/** How many leading path segments two folders share. */
function sharedLength(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  let shared = 0;
  while (shared < left.length && shared < right.length && left[shared] === right[shared] && left[shared] !== '') shared++;
  return shared;
}
