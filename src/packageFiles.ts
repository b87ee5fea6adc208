import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files this package ships beside its code, found from the package root: the nearest folder
 * above this module whose package.json is ours. This module runs compiled (dist/src/), bundled
 * into the CLI (dist/bundle/cli/) and into the parse worker (dist/bundle/workers/), at different
 * depths, so no path here is relative to it.
 */
const PACKAGE_NAME = 'repomap';

interface PackageManifest {
  root: string;
  version: string;
}

let manifest: PackageManifest | undefined;

function packageManifest(): PackageManifest {
  manifest ??= findManifest();
  return manifest;
}

function findManifest(): PackageManifest {
  const here = fileURLToPath(import.meta.url);
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const found = ownManifestIn(dir);
    if (found) return found;
    if (dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${here}`);
  }
}

function ownManifestIn(dir: string): PackageManifest | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || !('name' in parsed) || parsed.name !== PACKAGE_NAME) return null;
  if (!('version' in parsed) || typeof parsed.version !== 'string') return null;
  return { root: dir, version: parsed.version };
}

function packageRoot(): string {
  return packageManifest().root;
}

export function packageVersion(): string {
  return packageManifest().version;
}

/** The Piscina parse worker's module (see workers/parseShard.ts), bundled: as 26 modules it took 30 ms more of each worker's boot. */
export function parseWorkerFile(): string {
  return join(packageRoot(), 'dist', 'bundle', 'workers', 'parseShard.js');
}

/** The parse run in the coordinator's thread (see workers/parseHere.ts), bundled as CommonJS: required, not imported, from the CLI's bundle. */
export function parseHereFile(): string {
  return join(packageRoot(), 'dist', 'bundle', 'workers', 'parseHere.cjs');
}

/** The stat worker's module (see workers/statFiles.ts): it imports only src/discover/statFiles.js, so it runs unbundled. */
export function statWorkerFile(): string {
  return join(packageRoot(), 'dist', 'workers', 'statFiles.js');
}

/** The suspect checker's script, run as a child process (see workers/checkSuspects.ts). */
export function suspectCheckerFile(): string {
  return join(packageRoot(), 'dist', 'workers', 'checkSuspects.js');
}

/** The term counter's WebAssembly, assembled from src/lexical/termCounter.wat by the build. */
export function termCounterWasmFile(): string {
  return join(packageRoot(), 'dist', 'src', 'lexical', 'termCounter.wasm');
}

/** PageRank's power iteration in WebAssembly, assembled from src/rank/powerIteration.wat by the build. */
export function powerIterationWasmFile(): string {
  return join(packageRoot(), 'dist', 'src', 'rank', 'powerIteration.wasm');
}

/** The tree-sitter queries, `<language>-tags.scm` and `<language>-idents.scm`. */
export function queriesDir(): string {
  return join(packageRoot(), 'queries');
}
