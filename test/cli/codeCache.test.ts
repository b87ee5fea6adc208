import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

/** The bundled CLI and in-thread parse compiled with the V8 code caches the build made for them (src/codeCache.ts), and never with another's. */
const BUNDLE_DIR = fileURLToPath(new URL('../../dist/bundle/cli/', import.meta.url));
const PARSE_HERE = fileURLToPath(new URL('../../dist/bundle/workers/parseHere.cjs', import.meta.url));
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const CODE_CACHE = new URL('../../dist/src/codeCache.js', import.meta.url).href;
const BUILD_ID_LENGTH = 64;
// Beside the real bundle, so that the packages it requires resolve as they do from it.
const scratch = mkdtempSync(join(BUNDLE_DIR, 'codeCache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Loads `bundleFile` in a fresh Node as the launcher does: whether V8 took its cache, and what its export `name` is (the CLI's runCli unless named). */
function load(bundleFile: string, name = 'runCli'): { cacheUsed: boolean; exported: string } {
  const script = `import { loadBundle } from ${JSON.stringify(CODE_CACHE)};
const loaded = loadBundle(${JSON.stringify(bundleFile)});
console.log(JSON.stringify({ cacheUsed: loaded.cacheUsed, exported: typeof loaded.exports[${JSON.stringify(name)}] }));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { cacheUsed: boolean; exported: string };
}

/** A copy of the bundle in the scratch folder, with `cache` as its cache (none when undefined). */
function bundleWith(name: string, cache: Uint8Array | undefined, source = readFileSync(join(BUNDLE_DIR, 'cli.cjs'))): string {
  const file = join(scratch, `${name}.cjs`);
  writeFileSync(file, source);
  if (cache) writeFileSync(`${file}.v8cache`, cache);
  return file;
}

describe('the code cache', () => {
  const cache = readFileSync(join(BUNDLE_DIR, 'cli.cjs.v8cache'));

  test('the build’s is taken by the Node that built it', () => {
    expect(load(join(BUNDLE_DIR, 'cli.cjs'))).toEqual({ cacheUsed: true, exported: 'function' });
    // The same bytes beside a copy: the cache goes with the bundle's content, not its place.
    expect(load(bundleWith('copy', cache))).toEqual({ cacheUsed: true, exported: 'function' });
    // The in-thread parse's, trained by the same run's map after an edit.
    expect(load(PARSE_HERE, 'parseHere')).toEqual({ cacheUsed: true, exported: 'function' });
  });

  test('none, one made for another build, or damaged: the bundle compiles as it would without', () => {
    expect(load(bundleWith('none', undefined))).toEqual({ cacheUsed: false, exported: 'function' });
    const foreign = Buffer.from(cache);
    foreign[0] = foreign[0] === 0x61 ? 0x62 : 0x61;
    expect(load(bundleWith('foreign', foreign))).toEqual({ cacheUsed: false, exported: 'function' });
    const damaged = Buffer.from(cache);
    damaged.fill(0x5a, BUILD_ID_LENGTH + 16);
    expect(load(bundleWith('damaged', damaged))).toEqual({ cacheUsed: false, exported: 'function' });
    expect(load(bundleWith('short', cache.subarray(0, BUILD_ID_LENGTH)))).toEqual({ cacheUsed: false, exported: 'function' });
  });

  test('a bundle without a build id is offered no cache, even one that V8 would take', () => {
    const source = readFileSync(join(BUNDLE_DIR, 'cli.cjs'), 'latin1');
    const unstamped = source.replace(/^\/\*repomap-build:[0-9a-f]{64}/, `/*repomap-build:${'0'.repeat(BUILD_ID_LENGTH)}`);
    expect(unstamped).not.toBe(source);
    const zeros = Buffer.concat([Buffer.from('0'.repeat(BUILD_ID_LENGTH)), cache.subarray(BUILD_ID_LENGTH)]);
    expect(load(bundleWith('unstamped', zeros, Buffer.from(unstamped, 'latin1')))).toEqual({ cacheUsed: false, exported: 'function' });
  });

  test('a map loads the store’s packages from the bundle, none from node_modules', () => {
    // Every module required in the run, as Node's loader is asked for it.
    const preload = join(scratch, 'requires.cjs');
    writeFileSync(
      preload,
      `const Module = require('node:module'); const load = Module._load;
Module._load = function (request, ...rest) { if (!Module.isBuiltin(request)) process.stderr.write('require ' + request + '\\n'); return load.call(this, request, ...rest); };`,
    );
    const cacheDir = mkdtempSync(join(scratch, 'store-'));
    const run = (command: string) =>
      spawnSync(process.execPath, ['-r', preload, join(BUNDLE_DIR, 'main.js'), command, POLYGLOT, '--cache-dir', cacheDir], { encoding: 'utf8' });
    expect(run('index').status).toBe(0);
    const map = run('map');
    expect(map.status).toBe(0);
    const required = map.stderr.split('\n').filter((line) => line.startsWith('require '));
    // Code, that is: lmdb's native-build finder reads its package.json.
    const code = (name: string) => (line: string) => line === `require ${name}` || new RegExp(`/node_modules/${name}/.*\\.[cm]?js$`).test(line);
    for (const name of ['lmdb', 'msgpackr', 'ordered-binary', 'weak-lru-cache', 'ignore']) expect(required.filter(code(name))).toEqual([]);
    // The native build lmdb finds from its installed path is still loaded.
    expect(required.some((line) => line.endsWith('.node'))).toBe(true);
  });

  test('the launcher runs the CLI with it', () => {
    const result = spawnSync(process.execPath, [join(BUNDLE_DIR, 'main.js'), '--version'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    copyFileSync(join(BUNDLE_DIR, 'main.js'), join(scratch, 'main.js'));
    // With no bundle beside it: one line, exit 1.
    const alone = spawnSync(process.execPath, [join(scratch, 'main.js'), '--version'], { encoding: 'utf8' });
    expect(alone.status).toBe(1);
    expect(alone.stderr).toMatch(/^repomap: the bundled CLI cannot be loaded \(.*\): build or install the package again\n$/);
  });
});
