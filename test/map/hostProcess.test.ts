import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const LIBRARY = new URL('../../dist/src/index.js', import.meta.url).href;
const EXTRACT_RECORD = new URL('../../dist/workers/extractRecord.js', import.meta.url).href;
const FIXTURE = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));

/**
 * Run in a fresh Node process: what the host can see of its process (environment, tree-sitter's
 * node cache methods, whether a new context gets V8's gc) before importing the library, and after
 * a cold index and a map with two parse workers, then a parse in this thread, as fixture tests do.
 */
const HOST = `
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
const Tree = createRequire(${JSON.stringify(LIBRARY)})('tree-sitter').Tree;
const own = Object.fromEntries(['_cacheNode', '_cacheNodes'].map((name) => [name, Tree.prototype[name]]));
const state = () => ({
  env: { ...process.env },
  gcInNewContext: runInNewContext('typeof gc'),
  gcHere: typeof globalThis.gc,
  nodeCache: Object.fromEntries(Object.keys(own).map((name) => {
    const { value, ...flags } = Object.getOwnPropertyDescriptor(Tree.prototype, name) ?? {};
    return [name, { ...flags, value: value === own[name] ? 'the binding own' : String(value) }];
  })),
});
const before = state();
const { indexRepository, buildMap } = await import(${JSON.stringify(LIBRARY)});
const [root, cacheDir] = process.argv.slice(1);
const summary = await indexRepository({ root, cacheDir, jobs: 2 });
const map = await buildMap({ root, cacheDir, maxTokens: 300 });
const { extractRecord } = await import(${JSON.stringify(EXTRACT_RECORD)});
extractRecord({ path: 'a.py', mtimeMs: 0, size: 14, ctimeMs: 0, ino: 0, language: 'python', text: 'def f():\\n  g()\\n', bytes: Buffer.from('def f():\\n  g()\\n') }, 1000);
console.log(JSON.stringify({ before, after: state(), parsed: summary.parsed, mapped: map.text.length > 0 }));
`;

test('importing the library, indexing and mapping leave the host process as it was', () => {
  const root = mkdtempSync(join(tmpdir(), 'repomap-host-'));
  cpSync(FIXTURE, root, { recursive: true });
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-host-cache-'));
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', HOST, root, cacheDir], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  const { before, after, parsed, mapped } = JSON.parse(run.stdout);
  expect(parsed).toBeGreaterThan(2);
  expect(mapped).toBe(true);
  expect(before.gcInNewContext).toBe('undefined');
  expect(before.nodeCache._cacheNode.value).toBe('the binding own');
  expect(after).toEqual(before);
});
