// @ts-check
/**
 * dist/workers/extractRecord.js, failing on the file REPOMAP_FAULT=<fault>:<relative path>
 * names, as real inputs do only rarely: `crash` takes the process down with SIGSEGV (as a
 * native crash in tree-sitter would), `exit` ends the worker thread, `throw` throws, `hang`
 * never returns (outside tree-sitter), `stall` stays inside tree-sitter's native code, where no
 * deadline reaches, until its one-file shard's watchdog has fired, before parsing the file as usual.
 */
import { createRequire } from 'node:module';
import { extractRecord as extract } from '../../../dist/workers/extractRecord.js';

// `s`: a path may hold a newline.
const FAULT = /^(crash|exit|throw|hang|stall):(.+)$/s.exec(process.env.REPOMAP_FAULT ?? '');
/** The watchdog of a one-file shard fires this long after the file's limit (WATCHDOG_SLACK_MS of src/indexing/parsePool.ts); the stall lasts a second more. */
const STALL_PAST_LIMIT_MS = 2000 + 1000;

/** @type {typeof extract} */
export function extractRecord(file, timeoutMs, gate) {
  if (FAULT && FAULT[2] === file.path) {
    if (FAULT[1] === 'stall') stallInTreeSitter(gate, timeoutMs + STALL_PAST_LIMIT_MS);
    else fail(FAULT[1], file.path);
  }
  return extract(file, timeoutMs, gate);
}

/**
 * Native calls of a few hundred milliseconds each (a query over unclosed brackets, no timeout)
 * until `ms` have passed, inside the gate the worker was given. The watchdog's time runs from
 * before the worker took the shard: it is up before they have passed.
 * @param {import('../../../dist/workers/treeSitterGate.js').TreeSitterGate | undefined} gate
 * @param {number} ms
 */
function stallInTreeSitter(gate, ms) {
  const require = createRequire(import.meta.url);
  /** @type {typeof import('tree-sitter')} */
  const Parser = require('tree-sitter');
  gate?.enter();
  try {
    const parser = new Parser();
    const javascript = require('tree-sitter-javascript');
    parser.setLanguage(javascript);
    const query = new Parser.Query(javascript, '(identifier) @name');
    const tree = parser.parse(`var y = ${'['.repeat(10_000)}\n`);
    for (const until = performance.now() + ms; performance.now() < until; ) query.matches(tree.rootNode);
  } finally {
    gate?.leave();
  }
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
