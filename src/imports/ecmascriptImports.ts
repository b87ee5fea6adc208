import { realpathSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { type NapiResolveOptions, ResolverFactory } from 'oxc-resolver';
import type { LanguageResolver, Repository } from './importGraph.js';

/** Source first: `./x` and `./x.js` written in TypeScript name `x.ts` when there is one. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts', '.json'];
const EXTENSION_ALIAS = { '.js': ['.ts', '.tsx', '.js'], '.jsx': ['.tsx', '.jsx'], '.mjs': ['.mts', '.mjs'], '.cjs': ['.cts', '.cjs'] };
/** Any of these in a package's `exports`; `source` and `development` lead to sources where a package points there. */
const CONDITIONS = ['source', 'development', 'import', 'require', 'module', 'node', 'default'];

const RESOLVE_OPTIONS: NapiResolveOptions = {
  extensions: EXTENSIONS,
  extensionAlias: EXTENSION_ALIAS,
  conditionNames: CONDITIONS,
  mainFields: ['source', 'module', 'main'],
  // Built-in modules answer at once instead of a search of every node_modules up the tree.
  builtinModules: true,
  nodePath: false,
};

/**
 * JavaScript and TypeScript imports to repository files with oxc-resolver (Node's and
 * bundlers' rules: extensions, index files, package.json main/exports, the nearest
 * tsconfig.json's or jsconfig.json's paths and baseUrl), one resolver cache per run. A workspace package is
 * found in its folder whether or not it is installed in node_modules, and where its entry is
 * built output, at the source it was built from. A file outside the root or not indexed
 * (node_modules, built output) is no target. A folder's `index` file is a hub:
 * `import { X } from './pkg'` names the file defining X when `pkg/index.ts` only re-exports it.
 */
export const resolveEcmascriptImports: LanguageResolver = (files, repository) => {
  const realRoot = realRootOf(repository.root);
  const workspaces = workspacePackages(repository);
  const plain = new ResolverFactory(RESOLVE_OPTIONS);
  // A tsconfig that cannot be loaded (`extends` naming a package not installed) fails every
  // resolve below it: those fall back to the resolver without tsconfig, which shares the cache.
  const withTsconfig = plain.cloneWithOptions({ ...RESOLVE_OPTIONS, tsconfig: 'auto' });
  // oxc-resolver finds tsconfig.json files itself; a folder's jsconfig.json (JavaScript's
  // tsconfig) it reads only when told, so the files it governs get a resolver of their own.
  const configOf = new Map<string, ResolverFactory>();
  const resolverFor = (dir: string): ResolverFactory => {
    let resolver = configOf.get(dir);
    if (resolver) return resolver;
    const prefix = dir === '.' ? '' : `${dir}/`;
    if (repository.paths.has(`${prefix}tsconfig.json`)) resolver = withTsconfig;
    else if (repository.paths.has(`${prefix}jsconfig.json`)) {
      resolver = plain.cloneWithOptions({ ...RESOLVE_OPTIONS, tsconfig: { configFile: join(realRoot, `${prefix}jsconfig.json`) } });
    } else resolver = dir === '.' ? withTsconfig : resolverFor(posix.dirname(dir));
    configOf.set(dir, resolver);
    return resolver;
  };

  const indexedPath = (absolute: string | undefined): string | null => {
    const path = absolute === undefined ? null : insideRoot(realRoot, absolute);
    return path !== null && repository.paths.has(path) ? path : null;
  };

  const fromWorkspace = (specifier: string, resolved: string | undefined): string | null => {
    const parts = specifier.split('/');
    const nameLength = specifier.startsWith('@') ? 2 : 1;
    const workspace = workspaces.get(parts.slice(0, nameLength).join('/'));
    if (!workspace) return null;
    const folder = join(realRoot, workspace.folder);
    const subpath = parts.slice(nameLength).join('/');
    const candidates = entryCandidates(workspace.manifest, subpath);
    const installed = resolved === undefined ? null : insideRoot(realRoot, resolved);
    if (installed?.startsWith(`${workspace.folder}/`)) candidates.unshift(installed.slice(workspace.folder.length + 1));
    candidates.push(`src/${subpath || 'index'}`);
    for (const candidate of candidates) {
      for (const request of [candidate, sourceOf(candidate)]) {
        const found = request === null ? null : indexedPath(plain.sync(folder, `./${request}`).path);
        if (found) return found;
      }
    }
    return null;
  };

  const targets = files.map((file) => {
    const from = join(realRoot, file.path);
    const fromDir = posix.dirname(file.path);
    return file.imports.modules.map((specifier) => {
      if (!isResolvable(specifier)) return [];
      const probed = probeRelative(fromDir, specifier, repository.paths);
      if (probed !== undefined) return probed === null ? [] : [probed];
      let { path, error } = resolverFor(fromDir).resolveFileSync(from, specifier);
      if (error && /tsconfig/i.test(error)) path = plain.resolveFileSync(from, specifier).path;
      const found = indexedPath(path) ?? fromWorkspace(specifier, path);
      return found ? [found] : [];
    });
  });
  return { targets, hubs: { isHub: (path) => INDEX_FILE.test(path), takenNames: (file, entry) => files[file]!.imports.names[entry] ?? [] } };
};

/** A folder's index module: what `import … from './folder'` loads, and what re-exports the folder's modules. */
const INDEX_FILE = /(^|\/)index\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * A relative specifier looked up among the indexed files as oxc-resolver looks it up on disk
 * (the file, its extensions and aliases, the folder's index), which spares thousands of file
 * system probes: a file found, null for none (nothing else is a target), undefined for what only
 * the resolver can answer (a folder with its own package.json, a query or fragment).
 */
function probeRelative(fromDir: string, specifier: string, paths: ReadonlySet<string>): string | null | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return undefined;
  if (specifier.includes('?') || specifier.includes('#')) return undefined;
  const target = posix.join(fromDir, specifier).replace(/\/+$/, '');
  if (target === '..' || target.startsWith('../')) return null;
  const extension = posix.extname(target);
  const aliases = EXTENSION_ALIAS[extension as keyof typeof EXTENSION_ALIAS];
  const files = aliases ? aliases.map((alias) => target.slice(0, -extension.length) + alias) : [target];
  for (const file of files) if (paths.has(file)) return file;
  for (const ext of EXTENSIONS) if (paths.has(target + ext)) return target + ext;
  const folder = target === '.' ? '' : `${target}/`;
  if (paths.has(`${folder}package.json`)) return undefined;
  for (const ext of EXTENSIONS) if (paths.has(`${folder}index${ext}`)) return `${folder}index${ext}`;
  return null;
}

/** `/`-separated and relative to the root; null outside it. */
function insideRoot(realRoot: string, absolute: string): string | null {
  const inside = relative(realRoot, absolute);
  if (inside === '' || isAbsolute(inside) || inside === '..' || inside.startsWith(`..${sep}`)) return null;
  return inside.split(sep).join('/');
}

/** Folders that hold built output rather than sources. */
const BUILD_FOLDERS = new Set(['dist', 'build', 'lib', 'out', 'esm', 'cjs', 'es', 'umd', 'types']);

/** `dist/esm/Button.js` → `src/Button`: where the sources of a built file usually are; null when it is no built file. */
function sourceOf(path: string): string | null {
  const parts = path.split('/');
  let start = 0;
  while (start < parts.length - 1 && BUILD_FOLDERS.has(parts[start]!)) start++;
  if (start === 0) return null;
  const built = parts.slice(start).join('/');
  return `src/${built.replace(/(\.d)?\.[cm]?[jt]sx?$/, '')}`;
}

/**
 * What a package's manifest names for `subpath` ('' for the package itself), relative to its
 * folder: the `exports` target when it has exports, else the subpath or its source, module
 * and main entries.
 */
function entryCandidates(manifest: Record<string, unknown>, subpath: string): string[] {
  const exported = manifest.exports;
  const candidates =
    exported !== undefined && exported !== null
      ? [exportTarget(exported, subpath)]
      : subpath !== ''
        ? [subpath]
        : [manifest.source, manifest.module, manifest.main];
  return candidates.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.replace(/^\.\//, ''));
}

/** Node's `exports` lookup of `./subpath` (one `*` per key, conditions in the manifest's order); undefined when it exports none. */
function exportTarget(exported: unknown, subpath: string): unknown {
  const key = subpath === '' ? '.' : `./${subpath}`;
  if (typeof exported === 'string' || Array.isArray(exported)) return key === '.' ? conditionalTarget(exported) : undefined;
  if (exported === null || typeof exported !== 'object') return undefined;
  const entries = exported as Record<string, unknown>;
  if (!Object.keys(entries).some((name) => name.startsWith('.'))) return key === '.' ? conditionalTarget(entries) : undefined;
  if (key in entries) return conditionalTarget(entries[key]);
  for (const [pattern, value] of Object.entries(entries)) {
    const star = pattern.indexOf('*');
    if (star < 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (key.length < pattern.length - 1 || !key.startsWith(prefix) || !key.endsWith(suffix)) continue;
    const target = conditionalTarget(value);
    return typeof target === 'string' ? target.replaceAll('*', key.slice(prefix.length, key.length - suffix.length)) : undefined;
  }
  return undefined;
}

function conditionalTarget(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(conditionalTarget).find((target) => typeof target === 'string');
  if (value === null || typeof value !== 'object') return undefined;
  for (const [condition, target] of Object.entries(value)) {
    if (!CONDITIONS.includes(condition) && condition !== 'types') continue;
    const found = conditionalTarget(target);
    if (typeof found === 'string') return found;
  }
  return undefined;
}

/** URLs, data and virtual modules, empty and templated specifiers name no file. */
function isResolvable(specifier: string): boolean {
  return specifier !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(specifier) && !specifier.includes('${') && !specifier.startsWith('\0');
}

function realRootOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

interface WorkspacePackage {
  /** Relative to the root. */
  folder: string;
  /** Its package.json. */
  manifest: Record<string, unknown>;
}

/**
 * The workspace packages the root declares (package.json `workspaces`, pnpm-workspace.yaml,
 * lerna.json), by name: those of the indexed package.json files that the patterns match.
 */
function workspacePackages(repository: Repository): Map<string, WorkspacePackage> {
  const patterns = workspacePatterns(repository);
  const packages = new Map<string, WorkspacePackage>();
  if (patterns.length === 0) return packages;
  const included = patterns.filter((pattern) => !pattern.startsWith('!')).map(globRegExp);
  const excluded = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => globRegExp(pattern.slice(1)));
  for (const path of [...repository.paths].sort()) {
    if (!path.endsWith('/package.json')) continue;
    const folder = path.slice(0, -'/package.json'.length);
    if (!included.some((glob) => glob.test(folder)) || excluded.some((glob) => glob.test(folder))) continue;
    const manifest = jsonObject(repository.readText(path));
    const name = manifest?.name;
    if (manifest && typeof name === 'string' && name !== '' && !packages.has(name)) packages.set(name, { folder, manifest });
  }
  return packages;
}

function workspacePatterns(repository: Repository): string[] {
  const workspaces = jsonObject(repository.readText('package.json'))?.workspaces;
  const fromPackage = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages;
  const lerna = jsonObject(repository.readText('lerna.json'))?.packages;
  const patterns = [...(Array.isArray(fromPackage) ? fromPackage : []), ...(Array.isArray(lerna) ? lerna : []), ...pnpmPatterns(repository)];
  return patterns.filter((pattern): pattern is string => typeof pattern === 'string').map((pattern) => pattern.replace(/^\.\//, '').replace(/\/+$/, ''));
}

/** The `packages:` list of pnpm-workspace.yaml, read line by line (it holds nothing else we need). */
function pnpmPatterns(repository: Repository): string[] {
  const text = repository.readText('pnpm-workspace.yaml');
  if (!text) return [];
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s+-\s*(['"]?)(.+?)\1\s*(#.*)?$/.exec(line);
      if (item) patterns.push(item[2]!);
    }
  }
  return patterns;
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A workspace glob over folders: `*` within a segment, `**` across any. */
function globRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      source += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
