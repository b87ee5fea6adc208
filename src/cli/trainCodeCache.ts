import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundledCli, saveCodeCache } from './codeCache.js';

/**
 * The build's last step (bundled as dist/bundle/cli/trainCodeCache.cjs): a warm map of the
 * polyglot fixture run through the bundle, then V8's cache of what it compiled saved beside the
 * bundle, before the exit (see runCli), so that every later run compiles none of it.
 */
const bundle = fileURLToPath(new URL('./cli.cjs', import.meta.url));
const launcher = fileURLToPath(new URL('./main.js', import.meta.url));
const fixture = fileURLToPath(new URL('../../../fixtures/languages/polyglot', import.meta.url));
const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-train-'));
const indexed = spawnSync(process.execPath, [launcher, 'index', fixture, '--cache-dir', cacheDir], { encoding: 'utf8', timeout: 120_000 });
if (indexed.status !== 0) {
  rmSync(cacheDir, { recursive: true, force: true });
  process.stderr.write(`trainCodeCache: indexing ${fixture} failed (exit ${indexed.status}): ${indexed.stderr}\n`);
  process.exit(1);
}
const loaded = loadBundledCli(bundle);
// The map is made for what it compiles, not to be read.
process.stdout.write = () => true;
void loaded.cli.runCli(['map', fixture, '--cache-dir', cacheDir], () => {
  rmSync(cacheDir, { recursive: true, force: true });
  saveCodeCache(bundle, loaded);
});
