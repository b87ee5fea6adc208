#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { type LoadedBundle, loadBundle } from '../codeCache.js';
import type { BundledCli } from './cli.js';

/**
 * The package's bin, bundled as dist/bundle/cli/main.js: runs the CLI bundled beside it
 * (cli.cjs), compiled with its code cache (see src/codeCache.ts). CommonJS (the folder's own
 * package.json says so), as an ES module entry costs a warm map 4 ms more.
 */
let loaded: LoadedBundle<BundledCli>;
try {
  loaded = loadBundle<BundledCli>(fileURLToPath(new URL('./cli.cjs', import.meta.url)));
} catch (error) {
  process.stderr.write(
    `repomap: the bundled CLI cannot be loaded (${error instanceof Error ? error.message : String(error)}): build or install the package again\n`,
  );
  process.exit(1);
}
void loaded.exports.runCli(process.argv.slice(2));
