import { posix } from 'node:path';
import { readCargoManifest } from './cargoManifest.js';
import type { LanguageResolver, Repository } from './importGraph.js';
import { ancestorsOf, baseNameOf, childPath, folderOf } from './repositoryPaths.js';

/** A crate as module paths see it: the folder its modules live in, and its root file when one is known. */
interface Crate {
  folder: string;
  root: string | undefined;
}

/** A file's place in its crate: `src/a/b.rs` → module path [a, b]. */
interface ModuleOfFile {
  crate: Crate;
  path: readonly string[];
}

interface CrateLayout {
  paths: ReadonlySet<string>;
  /** Every crate root file: lib.rs, main.rs, `[lib]`/`[[bin]]`… paths, build.rs, tests/examples/benches/src/bin files. */
  roots: ReadonlySet<string>;
  /** The crate owning each folder that holds a root file. */
  crateByFolder: ReadonlyMap<string, Crate>;
  /** The repository's library crates by crate name (`shop_core`). */
  libraries: ReadonlyMap<string, Crate>;
}

/**
 * Rust: entries are full use paths (workers/rustUseTrees.ts; `mod x;` is `self::x`). A path
 * is read from its anchor — `crate::`, `self::`, `super::`, a child module of the current one,
 * a module of the crate root (2015-edition paths), or the name of a library crate of the
 * repository (every `Cargo.toml` `[package]` counts, workspace member or path dependency) — and
 * resolves to the file of its longest prefix that is a module file: `m.rs` or `m/mod.rs` below
 * the crate's folder, the root file for the crate itself. So an item (`crate::a::C`) resolves
 * to the file of the module that declares or re-exports it; every module file is a hub, seen
 * through to the file defining the item when it only re-exports it (`pub use self::b::C;`).
 * `#[path]` attributes are ignored; `std`, `core`, `alloc` and other crates resolve to nothing.
 */
export const resolveRustImports: LanguageResolver = (files, repository) => {
  const layout = crateLayoutOf(repository);
  const taken: (readonly string[])[][] = [];
  const targets = files.map((file) => {
    const home = moduleOfFile(layout, file.path);
    const names: (readonly string[])[] = [];
    taken.push(names);
    return file.imports.modules.map((written) => {
      const found = resolveUsePath(layout, home, written);
      names.push(found?.taken ?? []);
      return found === undefined ? [] : [found.file];
    });
  });
  return { targets, hubs: { isHub: () => true, takenNames: (file, entry) => taken[file]![entry]! } };
};

/** A use path's module file, and the item it takes from it: `C` of `a::C`, `*` of `a::*`, none of `a` itself. */
interface UseTarget {
  file: string;
  taken: readonly string[];
}

function resolveUsePath(layout: CrateLayout, home: ModuleOfFile, written: string): UseTarget | undefined {
  const segments = written.split('::');
  const glob = segments.at(-1) === '*';
  if (glob) segments.pop();
  const first = segments[0]!;
  let crate = home.crate;
  let base: readonly string[] = [];
  let rest = segments.slice(1);
  if (first === '') {
    // `::name::…`: an extern crate.
    const library = layout.libraries.get(segments[1] ?? '');
    if (!library) return undefined;
    crate = library;
    rest = segments.slice(2);
  } else if (first === 'self') {
    base = home.path;
  } else if (first === 'super') {
    let supers = 0;
    while (segments[supers] === 'super') supers++;
    if (supers > home.path.length) return undefined;
    base = home.path.slice(0, home.path.length - supers);
    rest = segments.slice(supers);
  } else if (first !== 'crate') {
    if (moduleFile(layout, crate, [...home.path, first])) {
      base = home.path;
      rest = segments;
    } else if (home.path.length > 0 && moduleFile(layout, crate, [first])) {
      rest = segments;
    } else {
      const library = layout.libraries.get(first);
      if (!library) return undefined;
      crate = library;
    }
  }
  // The stems of base and of each longer prefix of base + rest, tried longest first.
  let stem = stemOf(crate, base);
  const stems = [stem];
  for (const segment of rest) {
    stem = stem === undefined ? childPath(crate.folder, segment) : `${stem}/${segment}`;
    stems.push(stem);
  }
  for (let i = stems.length - 1; i >= 0; i--) {
    const file = fileOfStem(layout, crate, stems[i]);
    if (file) return { file, taken: i < rest.length ? [rest[i]!] : glob ? ['*'] : [] };
  }
  return undefined;
}

/** The file of module `path` of `crate`, if the repository holds it. */
function moduleFile(layout: CrateLayout, crate: Crate, path: readonly string[]): string | undefined {
  return fileOfStem(layout, crate, stemOf(crate, path));
}

/** `crate-folder/a/b` for module path [a, b]; undefined for the crate itself. */
function stemOf(crate: Crate, path: readonly string[]): string | undefined {
  return path.length === 0 ? undefined : childPath(crate.folder, path.join('/'));
}

function fileOfStem(layout: CrateLayout, crate: Crate, stem: string | undefined): string | undefined {
  if (stem === undefined) return crate.root;
  if (layout.paths.has(`${stem}.rs`)) return `${stem}.rs`;
  if (layout.paths.has(`${stem}/mod.rs`)) return `${stem}/mod.rs`;
  return undefined;
}

/**
 * A root file's crate owns its folder; any other file belongs to the crate of its nearest
 * ancestor folder owning one, else of its nearest `src` folder, else of its own folder.
 */
function moduleOfFile(layout: CrateLayout, path: string): ModuleOfFile {
  const folder = folderOf(path);
  if (layout.roots.has(path)) return { crate: { folder, root: path }, path: [] };
  let crate: Crate | undefined;
  for (const ancestor of ancestorsOf(folder)) {
    crate = layout.crateByFolder.get(ancestor);
    if (crate) break;
  }
  crate ??= { folder: [...ancestorsOf(folder)].find((ancestor) => baseNameOf(ancestor) === 'src') ?? folder, root: undefined };
  const inside = (crate.folder === '' ? path : path.slice(crate.folder.length + 1)).slice(0, -'.rs'.length).split('/');
  if (inside.at(-1) === 'mod') inside.pop();
  return { crate, path: inside };
}

/** How strongly a root file claims its folder's `crate::` paths: a library over a binary over the rest. */
const RootRank = { Other: 0, Main: 1, Library: 2 } as const;
type RootRank = (typeof RootRank)[keyof typeof RootRank];

function crateLayoutOf(repository: Repository): CrateLayout {
  const paths = repository.paths;
  const roots = new Map<string, RootRank>();
  const libraries = new Map<string, Crate>();
  const addRoot = (path: string, rank: RootRank) => {
    if (paths.has(path) && (roots.get(path) ?? -1) < rank) roots.set(path, rank);
  };
  for (const path of paths) {
    if (!path.endsWith('.rs')) continue;
    const name = baseNameOf(path);
    if (name === 'lib.rs') addRoot(path, RootRank.Library);
    else if (name === 'main.rs') addRoot(path, RootRank.Main);
    else if (isTargetFolder(paths, folderOf(path))) addRoot(path, RootRank.Other);
  }
  for (const path of paths) {
    if (baseNameOf(path) !== 'Cargo.toml') continue;
    const text = repository.readText(path);
    if (text === undefined) continue;
    const folder = folderOf(path);
    const manifest = readCargoManifest(text);
    const inFolder = (relativePath: string) => posix.normalize(childPath(folder, relativePath));
    addRoot(inFolder('build.rs'), RootRank.Other);
    for (const target of manifest.targetPaths) addRoot(inFolder(target), RootRank.Main);
    const library = inFolder(manifest.libPath);
    if (!paths.has(library)) continue;
    addRoot(library, RootRank.Library);
    if (manifest.libName) libraries.set(manifest.libName, { folder: folderOf(library), root: library });
  }
  return { paths, roots: new Set(roots.keys()), crateByFolder: cratesByFolder(roots), libraries };
}

/** Each folder holding root files, owned by its strongest root; by none when two tie (tests/a.rs, tests/b.rs). */
function cratesByFolder(roots: ReadonlyMap<string, RootRank>): Map<string, Crate> {
  const best = new Map<string, { root: string | undefined; rank: RootRank }>();
  for (const [root, rank] of roots) {
    const folder = folderOf(root);
    const held = best.get(folder);
    if (!held || rank > held.rank) best.set(folder, { root, rank });
    else if (rank === held.rank) held.root = undefined;
  }
  return new Map([...best].map(([folder, { root }]) => [folder, { folder, root }]));
}

/** `tests/`, `examples/`, `benches/` and `src/bin/` hold one crate per file, unless the folder is a module's. */
function isTargetFolder(paths: ReadonlySet<string>, folder: string): boolean {
  const name = baseNameOf(folder);
  const target = name === 'tests' || name === 'examples' || name === 'benches' || (name === 'bin' && baseNameOf(folderOf(folder)) === 'src');
  return target && !paths.has(`${folder}.rs`) && !paths.has(`${folder}/mod.rs`);
}
