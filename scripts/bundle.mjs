// The build's bundling step (`npm run bundle`, after tsc): the CLI, its launcher, the parse
// worker and its in-thread twin bundled with esbuild, then the CLI's V8 code cache made (see src/cli/codeCache.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

rmSync('dist/bundle', { recursive: true, force: true });
await build({ ...commonJs(`/*repomap-build:${ZERO_ID}*/`), entryPoints: ['dist/src/cli/cli.js'], outfile: 'dist/bundle/cli/cli.cjs' });
await build({ ...commonJs(), entryPoints: ['dist/src/cli/launcher.js'], outfile: 'dist/bundle/cli/main.js' });
// The bin keeps its name (npx keeps links to it), as CommonJS: an ES module entry costs a warm map 4 ms.
writeFileSync('dist/bundle/cli/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
await build({ ...commonJs(), entryPoints: ['dist/src/cli/trainCodeCache.js'], outfile: 'dist/bundle/cli/trainCodeCache.cjs' });
await build({ ...common, format: 'esm', entryPoints: ['dist/workers/parseShard.js'], outdir: 'dist/bundle/workers' });
// The parse in the coordinator's thread, required by the CLI's bundle (vm-compiled code cannot import()).
await build({ ...commonJs(), entryPoints: ['dist/workers/parseHere.js'], outfile: 'dist/bundle/workers/parseHere.cjs' });

// The bundle's build id, written over the zeros (same length: the source map holds).
const bundle = readFileSync('dist/bundle/cli/cli.cjs', 'utf8');
const id = createHash('sha256').update(bundle).digest('hex');
writeFileSync('dist/bundle/cli/cli.cjs', bundle.replace(ZERO_ID, id));
for (const bin of ['dist/bundle/cli/main.js', 'dist/src/cli/main.js']) chmodSync(bin, 0o755);

const trained = spawnSync(process.execPath, ['dist/bundle/cli/trainCodeCache.cjs'], { stdio: 'inherit' });
if (trained.status !== 0) {
  console.error('bundle: the code cache could not be made');
  process.exit(1);
}
