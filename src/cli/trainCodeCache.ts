import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle, saveCodeCaches } from '../codeCache.js';
import type { BundledCli } from './cli.js';

/**
 * The build's last step (bundled as dist/bundle/cli/trainCodeCache.cjs): a warm map of the
 * polyglot fixture (in the package's git work tree, so that git's signals are read too) run
 * through the bundle and V8's cache of what it compiled saved beside the bundle; then a map of a
 * copy of the fixture after an edit of one of its files, and the cache of the parse it ran in its
 * own thread saved beside that bundle. The CLI's cache holds the warm map's code alone: with an
 * edit's too (536 KB, not 408), a warm map took 1.5–5% longer to load it, more than an edit's map
 * gained (0–6%).
 */
const bundle = fileURLToPath(new URL('./cli.cjs', import.meta.url));
const launcher = fileURLToPath(new URL('./main.js', import.meta.url));
const fixture = fileURLToPath(new URL('../../../fixtures/languages/polyglot', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'repomap-train-'));

function fail(why: string): never {
  rmSync(work, { recursive: true, force: true });
  process.stderr.write(`trainCodeCache: ${why}\n`);
  process.exit(1);
}

/** Indexes `root` into `cacheDir` in a process of its own; the arguments of a map of it from there. */
function mapAfterIndex(root: string, cacheDir: string): string[] {
  const run = spawnSync(process.execPath, [launcher, 'index', root, '--cache-dir', cacheDir], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) fail(`indexing ${root} failed (exit ${run.status}): ${run.stderr}`);
  return ['map', root, '--cache-dir', cacheDir];
}

const warmMap = mapAfterIndex(fixture, join(work, 'fixture-cache'));
const edited = join(work, 'polyglot');
cpSync(fixture, edited, { recursive: true });
const editedMap = mapAfterIndex(edited, join(work, 'edited-cache'));
const loaded = loadBundle<BundledCli>(bundle);
// The maps are made for what they compile, not to be read.
process.stdout.write = () => true;
// As runCli sets it for every run (see there).
process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED ??= 'true';
// Bundled as CommonJS, which has no top-level await.
void (async () => {
  if ((await loaded.exports.exitCodeOf(warmMap)) !== 0) fail(`the warm map of ${fixture} failed`);
  saveCodeCaches();
  appendFileSync(join(edited, 'api', 'server.py'), '\n\ndef trained():\n    return seed()\n');
  if ((await loaded.exports.exitCodeOf(editedMap)) !== 0) fail(`the map of ${edited} after an edit failed`);
  loaded.exports.saveCodeCaches();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
})();
