// The build's bundling step (`npm run bundle`, after tsc): the CLI, its launcher, the parse
// worker and its in-thread twin bundled with esbuild, then the V8 code caches of the CLI and the
// in-thread parse made (see src/codeCache.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';

const ZERO_ID = '0'.repeat(64);
const common = { bundle: true, platform: 'node', packages: 'external', minify: true, sourcemap: true, logLevel: 'warning' };
// CommonJS, which the launcher compiles through node:vm with the cache; import.meta.url made from __filename.
const commonJs = (banner = '') => ({
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: `${banner}const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;` },
});

/**
 * The packages every map loads (the store's and discovery's), compiled into the CLI's bundle and so
 * into its code cache: required from node_modules, compiling them and resolving their package
 * exports cost a warm map 15 ms (with them inlined, warm maps 0.90–0.98×: bench/BASELINE.md,
 * seventh session). The source requires them lazily through createRequire,
 * which esbuild does not follow: that call is made a plain require here. lmdb finds its native
 * build, and msgpackr its optional extractor, from their own file's path: given the installed file.
 */
const INLINED = ['lmdb', 'msgpackr', 'ordered-binary', 'weak-lru-cache', '@harperfast/extended-iterable', 'ignore'];
const FINDS_FILES_BY_OWN_PATH = /node_modules\/(lmdb|msgpackr)\/dist\/[^/]+\.cjs$/;
const inlineStorePackages = {
  name: 'inline-store-packages',
  setup(bundling) {
    bundling.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || args.path.startsWith('node:') || INLINED.includes(args.path) ? undefined : { path: args.path, external: true },
    );
    bundling.onLoad({ filter: /dist\/src\/.*\.js$/ }, async (args) => {
      let contents = await readFile(args.path, 'utf8');
      for (const name of INLINED) contents = contents.replaceAll(`createRequire(import.meta.url)('${name}')`, `require('${name}')`);
      return { contents, loader: 'js' };
    });
    bundling.onLoad({ filter: FINDS_FILES_BY_OWN_PATH }, async (args) => {
      const name = FINDS_FILES_BY_OWN_PATH.exec(args.path)[1];
      const contents = await readFile(args.path, 'utf8');
      return { contents: `const __installedFilename = require.resolve('${name}');\n${contents.replaceAll('__filename', '__installedFilename')}`, loader: 'js' };
    });
  },
};

rmSync('dist/bundle', { recursive: true, force: true });
// A bundle with a code cache: CommonJS, its build id in front, the store's packages inlined.
const { packages: _allExternal, ...cachedCommonJs } = commonJs(`/*repomap-build:${ZERO_ID}*/`);
const cachedBundle = {
  ...cachedCommonJs,
  plugins: [inlineStorePackages],
  // require.resolve of an inlined package runs as it is written: in Node's require, at run time.
  logOverride: { 'require-resolve-not-external': 'silent' },
};
await build({ ...cachedBundle, entryPoints: ['dist/src/cli/cli.js'], outfile: 'dist/bundle/cli/cli.cjs' });
await build({ ...commonJs(), entryPoints: ['dist/src/cli/launcher.js'], outfile: 'dist/bundle/cli/main.js' });
// The bin keeps its name (npx keeps links to it), as CommonJS: an ES module entry costs a warm map 4 ms.
writeFileSync('dist/bundle/cli/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
await build({ ...commonJs(), entryPoints: ['dist/src/cli/trainCodeCache.js'], outfile: 'dist/bundle/cli/trainCodeCache.cjs' });
await build({ ...common, format: 'esm', entryPoints: ['dist/workers/parseShard.js'], outdir: 'dist/bundle/workers' });
// The parse in the coordinator's thread, which the CLI's bundle loads (vm-compiled code cannot import()) with its own code cache.
await build({ ...cachedBundle, entryPoints: ['dist/workers/parseHere.js'], outfile: 'dist/bundle/workers/parseHere.cjs' });

// Each cached bundle's build id, written over the zeros (same length: the source map holds).
for (const file of ['dist/bundle/cli/cli.cjs', 'dist/bundle/workers/parseHere.cjs']) {
  const bundle = readFileSync(file, 'utf8');
  writeFileSync(file, bundle.replace(ZERO_ID, createHash('sha256').update(bundle).digest('hex')));
}
for (const bin of ['dist/bundle/cli/main.js', 'dist/src/cli/main.js']) chmodSync(bin, 0o755);

const trained = spawnSync(process.execPath, ['dist/bundle/cli/trainCodeCache.cjs'], { stdio: 'inherit' });
if (trained.status !== 0) {
  console.error('bundle: the code caches could not be made');
  process.exit(1);
}
