// The suite's settings, for `npm test` and for `npx vitest run FILE` alike.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    dir: 'test',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Most of a test's time is spent waiting on the CLI's child processes, so two files at a time use
    // a 2-core machine, where vitest's default (one file fewer than the cores) runs one at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Test files share a worker's loaded modules: each file importing the built library anew cost
    // the suite 35 s of its 490 here. A test that changes shared state (LIMITS) puts it back.
    isolate: false,
  },
});
