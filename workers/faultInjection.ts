/**
 * Test-only faults, so tests can exercise recovery from failures that real inputs cause only
 * rarely: REPOMAP_FAULT=<fault>:<relative path> makes the process handling that file
 * `crash` (die of SIGSEGV, as a native crash in tree-sitter would), `exit` its worker thread,
 * `throw`, or `hang`.
 */
const FAULT = /^(crash|exit|throw|hang):(.+)$/.exec(process.env.REPOMAP_FAULT ?? '');

export function injectFault(path: string): void {
  if (!FAULT || FAULT[2] !== path) return;
  switch (FAULT[1]) {
    case 'crash':
      // process.abort() is unavailable in worker threads; a signal takes the whole process.
      process.kill(process.pid, 'SIGSEGV');
      for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: the loop above never ends
    case 'exit':
      process.exit(70);
    case 'throw':
      throw new Error(`injected fault on ${path}`);
    case 'hang':
      for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}
