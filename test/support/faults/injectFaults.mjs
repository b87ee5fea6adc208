// @ts-check
/**
 * Loaded with `--import` (see faultEnv in ../cli.ts) into a CLI run, and so into its parse
 * workers and its suspect checker, which inherit NODE_OPTIONS: swaps the workers'
 * extractRecord.js (and the one the CLI parses a few files with in its own thread) for faultyExtractRecord.mjs, which fails as REPOMAP_FAULT says. With
 * REPOMAP_FAULT=slow-boot:<file>, each parse worker sleeps a second before loading its module,
 * then appends a line to <file>: a worker terminated while booting never writes it.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

register('./faultHooks.mjs', import.meta.url);

// The CLI requires the bundled parseHere.cjs to parse a few files in its own thread; require()
// does not pass the hooks, so the unbundled module, imported through them, stands in its cache.
if (isMainThread) {
  const bundled = fileURLToPath(new URL('../../../dist/bundle/workers/parseHere.cjs', import.meta.url));
  const unbundled = await import(new URL('../../../dist/workers/parseHere.js', import.meta.url).href);
  createRequire(import.meta.url).cache[bundled] = /** @type {NodeJS.Module} */ (
    /** @type {unknown} */ ({ id: bundled, filename: bundled, loaded: true, exports: unbundled, children: [], paths: [] })
  );
}

// Piscina loads its worker's module with require(), which Node 20's loader hooks do not see;
// imported here first, through the hooks, the module is the one require() then finds.
if (!isMainThread) {
  const bootedFile = /^slow-boot:(.+)$/s.exec(process.env.REPOMAP_FAULT ?? '')?.[1];
  if (bootedFile) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  await import(new URL('../../../dist/bundle/workers/parseShard.js', import.meta.url).href);
  if (bootedFile) appendFileSync(bootedFile, 'booted\n');
}
