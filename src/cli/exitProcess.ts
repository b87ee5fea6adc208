import { createRequire } from 'node:module';

/**
 * Ends the process with `code`, past a deadlock in Node's exit (nodejs/node#54918, open on Node
 * 20): a TurboFan compile on one of V8's worker threads waits for a garbage collection only the
 * main thread can run, while the main thread, exiting, waits for those threads to end; the
 * output is written and the process never ends (issue 25 caught it in `bench/exitHang.ts`). So
 * before exiting, no new compile may start, and the running ones are waited for with the main
 * thread parked, where V8 runs any collection they ask for. Where the V8 at hand lacks the
 * intrinsic this needs, the process exits as it would have.
 */
export function exitProcess(code: number): never {
  try {
    settleBackgroundCompiles();
  } catch {
    // The intrinsic is V8's own, not an API: a V8 without it exits unguarded.
  }
  process.exit(code);
}

/** Stops V8 from starting optimizing compiles and waits for the running ones; throws where V8 lacks the intrinsic. */
export function settleBackgroundCompiles(): void {
  // Required here, not imported: only the exit needs node:v8.
  const { setFlagsFromString } = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  setFlagsFromString('--no-turbofan');
  // Node 22 on also compiles with Maglev in the background, and the intrinsic waits for both.
  setFlagsFromString('--no-maglev');
  setFlagsFromString('--allow-natives-syntax');
  try {
    // An intrinsic parses only in source compiled while the flag is set.
    new Function('%WaitForBackgroundOptimization()')();
  } finally {
    setFlagsFromString('--no-allow-natives-syntax');
  }
}
