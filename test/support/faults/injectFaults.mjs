// @ts-check
/**
 * Loaded with `--import` (see faultEnv in ../cli.ts) into a CLI run, and so into its parse
 * workers and its suspect checker, which inherit NODE_OPTIONS: swaps the workers'
 * extractRecord.js for faultyExtractRecord.mjs, which fails as REPOMAP_FAULT says.
 */
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

register('./faultHooks.mjs', import.meta.url);

// Piscina loads its worker's module with require(), which Node 20's loader hooks do not see;
// imported here first, through the hooks, the module is the one require() then finds.
if (!isMainThread) await import(new URL('../../../dist/workers/parseShard.js', import.meta.url).href);
