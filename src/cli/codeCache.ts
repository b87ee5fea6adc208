import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import type { runCli } from './cli.js';

/**
 * The bundled CLI compiled with V8's code cache, made by the build (trainCodeCache.ts): Node 20
 * has no compile cache of its own (module.enableCompileCache came in Node 22), and a warm map
 * spent 15–20 ms of its 130 compiling the bundle's functions (mixed-500: 131 → 115 ms). The cache
 * belongs to one build of the bundle: the bundle begins with its build id, and the cache starts with
 * the id it was made for, so a cache of another build is never offered to V8. V8 itself refuses a
 * cache made by another V8 or under other flags (then the bundle compiles as it would without).
 */

/** How the bundle begins: its build id (64 hex digits), which the build (scripts/bundle.mjs) writes over 64 zeros. */
const BUILD_ID_MARK = '/*repomap-build:';
const BUILD_ID_LENGTH = 64;
/** The cache's file, beside the bundle. */
const cacheFileOf = (bundleFile: string): string => `${bundleFile}.v8cache`;

/** What the bundle exports (src/cli/cli.ts). */
export interface BundledCli {
  runCli: typeof runCli;
}

export interface LoadedCli {
  cli: BundledCli;
  /** Whether V8 took the cache (false without one, or with one of another build, V8 or flags). */
  cacheUsed: boolean;
  /** The cache of what V8 has compiled of the bundle so far, for the build's training run. */
  makeCache(): Uint8Array;
}

/** Evaluates the CommonJS bundle `bundleFile`, compiled with its code cache when there is one for it. */
export function loadBundledCli(bundleFile: string): LoadedCli {
  const source = readFileSync(bundleFile, 'utf8');
  const id = buildIdOf(source);
  const cachedData = id === null ? undefined : cacheFor(bundleFile, id);
  // The module wrapper of Node's CommonJS loader, on the bundle's first line: its lines keep their numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    cachedData,
  });
  const module = { exports: {} as BundledCli };
  script.runInThisContext()(module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  return {
    cli: module.exports,
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
}

/** Saves what `loaded` compiled as the cache of `bundleFile`. */
export function saveCodeCache(bundleFile: string, loaded: LoadedCli): void {
  writeFileSync(cacheFileOf(bundleFile), loaded.makeCache());
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
