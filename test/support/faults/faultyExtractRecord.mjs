// @ts-check
/**
 * dist/workers/extractRecord.js, failing on the file REPOMAP_FAULT=<fault>:<relative path>
 * names, as real inputs do only rarely: `crash` takes the process down with SIGSEGV (as a
 * native crash in tree-sitter would), `exit` ends the worker thread, `throw` throws, `hang`
 * never returns.
 */
import { extractRecord as extract } from '../../../dist/workers/extractRecord.js';

const FAULT = /^(crash|exit|throw|hang):(.+)$/.exec(process.env.REPOMAP_FAULT ?? '');

/** @type {typeof extract} */
export function extractRecord(file, timeoutMs) {
  if (FAULT && FAULT[2] === file.path) fail(FAULT[1], file.path);
  return extract(file, timeoutMs);
}

/**
 * @param {string | undefined} fault
 * @param {string} path
 */
function fail(fault, path) {
  switch (fault) {
    case 'crash':
      // process.abort() is unavailable in worker threads; a signal takes the whole process.
      process.kill(process.pid, 'SIGSEGV');
      return sleepForever();
    case 'exit':
      return process.exit(70);
    case 'throw':
      throw new Error(`injected fault on ${path}`);
    case 'hang':
      return sleepForever();
  }
}

/** @returns {never} */
function sleepForever() {
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}
