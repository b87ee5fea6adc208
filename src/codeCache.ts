import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * Bundles compiled with V8's code cache, made by the build (src/cli/trainCodeCache.ts): the CLI
 * (dist/bundle/cli/cli.cjs) and the parse it runs in its own thread (dist/bundle/workers/parseHere.cjs).
 * Node 20 has no compile cache of its own (module.enableCompileCache came in Node 22), and a warm
 * map spent 15–20 ms of its 130 compiling the bundle's functions (mixed-500: 131 → 115 ms). A
 * cache belongs to one build of its bundle: the bundle begins with its build id, and the cache
 * starts with the id it was made for, so a cache of another build is never offered to V8. V8
 * itself refuses a cache made by another V8 or under other flags (then the bundle compiles as it
 * would without).
 */

/** How a bundle begins: its build id (64 hex digits), which the build (scripts/bundle.mjs) writes over 64 zeros. */
const BUILD_ID_MARK = '/*repomap-build:';
const BUILD_ID_LENGTH = 64;
/** The cache's file, beside the bundle. */
const cacheFileOf = (bundleFile: string): string => `${bundleFile}.v8cache`;

export interface LoadedBundle<Exports> {
  exports: Exports;
  /** Whether V8 took the cache (false without one, with one of another build, V8 or flags, or when the module was loaded already). */
  cacheUsed: boolean;
  /** The cache of what V8 has compiled of the bundle so far, for the build's training run; null when this process did not compile it. */
  makeCache(): Uint8Array | null;
}

/** The bundles this module loaded, whose caches saveCodeCaches writes. */
const loadedBundles = new Map<string, LoadedBundle<unknown>>();

/**
 * Evaluates the CommonJS bundle `bundleFile`, compiled with its code cache when there is one for
 * it; the module itself when Node's loader has it already (a host that required it, or a test's
 * stand-in), as require() would.
 */
export function loadBundle<Exports>(bundleFile: string): LoadedBundle<Exports> {
  const require = createRequire(bundleFile);
  const required = require.cache[bundleFile];
  if (required) return { exports: required.exports as Exports, cacheUsed: false, makeCache: () => null };
  const source = readFileSync(bundleFile, 'utf8');
  const id = buildIdOf(source);
  const cachedData = id === null ? undefined : cacheFor(bundleFile, id);
  // The module wrapper of Node's CommonJS loader, on the bundle's first line: its lines keep their numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    cachedData,
  });
  const module = { exports: {} as Exports };
  script.runInThisContext()(module.exports, require, module, bundleFile, dirname(bundleFile));
  const loaded: LoadedBundle<Exports> = {
    exports: module.exports,
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
    makeCache: () => {
      if (id === null) throw new Error(`${bundleFile} has no build id`);
      const data = script.createCachedData();
      const out = new Uint8Array(id.length + data.length);
      out.set(Buffer.from(id, 'latin1'));
      out.set(data, id.length);
      return out;
    },
  };
  loadedBundles.set(bundleFile, loaded);
  return loaded;
}

/** Saves the cache of every bundle this module has loaded, beside each (the build's training run). */
export function saveCodeCaches(): void {
  for (const [bundleFile, loaded] of loadedBundles) {
    const cache = loaded.makeCache();
    if (cache) writeFileSync(cacheFileOf(bundleFile), cache);
  }
}

function buildIdOf(source: string): string | null {
  const id = source.startsWith(BUILD_ID_MARK) ? source.slice(BUILD_ID_MARK.length, BUILD_ID_MARK.length + BUILD_ID_LENGTH) : '';
  return /^[0-9a-f]{64}$/.test(id) && !/^0+$/.test(id) ? id : null;
}

/** The cache's V8 data, when the cache is there and was made for build `id`. */
function cacheFor(bundleFile: string, id: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cacheFileOf(bundleFile));
  } catch {
    return undefined;
  }
  return bytes.length > id.length && bytes.toString('latin1', 0, id.length) === id ? bytes.subarray(id.length) : undefined;
}
