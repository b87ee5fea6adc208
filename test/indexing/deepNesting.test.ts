import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CliResult, cliTags, type IndexJson, indexedRepo, makeRepo, runCli } from '../support/cli.js';

/**
 * Unclosed brackets make tree-sitter's tags query quadratic (at each bracket, its cursor scans
 * the later siblings for a named one): 100,000 of them took it a minute. Such a file must time
 * out like any other, with no tags, and cost the run nothing more.
 */
const BOMB_BRACKETS = 100_000;
const NESTED_DEPTH = 300;

const GOOD_JS = 'export function ok(a) {\n  return helper(a);\n}\n';
const GOOD_PY = 'def fine():\n    return other()\n';

/** Exit 0, no signal, nothing on stderr but the summary line. */
function expectClean(result: CliResult): void {
  const otherStderr = result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('repomap: '));
  expect({ code: result.code, signal: result.signal, otherStderr }).toEqual({ code: 0, signal: null, otherStderr: [] });
}

/** `index --json`, then `map`: both exit 0; the summary's skipped files. */
async function indexThenMap(root: string, args: string[]): Promise<{ skippedFiles: IndexJson['skippedFiles']; map: string }> {
  const index = await runCli(['index', root, '--json', ...args]);
  expectClean(index);
  const map = await runCli(['map', root, ...args]);
  expectClean(map);
  return { skippedFiles: (JSON.parse(index.stdout) as IndexJson).skippedFiles, map: map.stdout };
}

describe('a bracket bomb times out and the run goes on', () => {
  test(`${BOMB_BRACKETS.toLocaleString('en')} unclosed brackets, default limits`, async () => {
    const root = makeRepo({ 'ok.js': GOOD_JS, 'fine.py': GOOD_PY, 'bomb.js': `var y = ${'['.repeat(BOMB_BRACKETS)}\n` });
    const { skippedFiles, map } = await indexThenMap(root, []);
    expect(skippedFiles).toEqual([{ path: 'bomb.js', reason: 'timeout' }]);
    expect(map).toContain('fine.py:\n│def fine():\n');
    expect(map).toContain('ok.js:\n│export function ok(a) {\n');
  });

  test('20,000 unclosed brackets with --file-timeout-ms 50', async () => {
    const root = await indexedRepo({ 'ok.js': GOOD_JS });
    writeFileSync(join(root, 'bomb.js'), `var y = ${'['.repeat(20_000)}\n`);
    const { skippedFiles, map } = await indexThenMap(root, ['--file-timeout-ms', '50']);
    expect(skippedFiles).toEqual([{ path: 'bomb.js', reason: 'timeout' }]);
    expect(map).toContain('ok.js:\n│export function ok(a) {\n');
  });
});

interface LanguageCase {
  ext: string;
  /** Source of a file with BOMB_BRACKETS unclosed brackets. */
  bomb: string;
  /** Valid source nesting NESTED_DEPTH scopes. */
  nested: string;
  /** Tags of the innermost scopes, as cliTags prints them. */
  innermost: string[];
}

const lines = (count: number, line: (i: number) => string): string => Array.from({ length: count }, (_, i) => line(i)).join('');
const bomb = (prefix: string, bracket: string): string => `${prefix}${bracket.repeat(BOMB_BRACKETS)}\n`;

const LANGUAGES: Record<string, LanguageCase> = {
  python: {
    ext: 'py',
    bomb: bomb('x = ', '('),
    nested: `${lines(NESTED_DEPTH, (i) => `${' '.repeat(i)}def f${i}():\n`)}${' '.repeat(NESTED_DEPTH)}return leaf()\n`,
    innermost: [`nested.py:${NESTED_DEPTH} def function f${NESTED_DEPTH - 1}`, `nested.py:${NESTED_DEPTH + 1} ref call leaf`],
  },
  javascript: {
    ext: 'js',
    bomb: bomb('var y = ', '['),
    nested: `${lines(NESTED_DEPTH, (i) => `function f${i}() {\n`)}return leaf();\n${'}\n'.repeat(NESTED_DEPTH)}`,
    innermost: [`nested.js:${NESTED_DEPTH} def function f${NESTED_DEPTH - 1}`, `nested.js:${NESTED_DEPTH + 1} ref call leaf`],
  },
  typescript: {
    ext: 'ts',
    bomb: bomb('const y = ', '{'),
    nested: `${lines(NESTED_DEPTH, (i) => `function f${i}(): number {\n`)}return leaf();\n${'}\n'.repeat(NESTED_DEPTH)}`,
    innermost: [`nested.ts:${NESTED_DEPTH} def function f${NESTED_DEPTH - 1}`, `nested.ts:${NESTED_DEPTH + 1} ref call leaf`],
  },
  tsx: {
    ext: 'tsx',
    bomb: bomb('const e = ', '('),
    nested: `${lines(NESTED_DEPTH, (i) => `function F${i}() {\n`)}return <Leaf />;\n${'}\n'.repeat(NESTED_DEPTH)}`,
    innermost: [`nested.tsx:${NESTED_DEPTH} def function F${NESTED_DEPTH - 1}`, `nested.tsx:${NESTED_DEPTH + 1} ref component Leaf`],
  },
  rust: {
    ext: 'rs',
    bomb: bomb('fn f() { let x = ', '['),
    nested: `${lines(NESTED_DEPTH, (i) => `mod m${i} {\n`)}fn leaf() {}\n${'}\n'.repeat(NESTED_DEPTH)}`,
    innermost: [`nested.rs:${NESTED_DEPTH} def module m${NESTED_DEPTH - 1}`, `nested.rs:${NESTED_DEPTH + 1} def function leaf`],
  },
  go: {
    ext: 'go',
    bomb: bomb('package p\nvar x = ', '('),
    nested: `package p\nfunc f() {\n${lines(NESTED_DEPTH, () => 'func() {\n')}leaf()\n${'}()\n'.repeat(NESTED_DEPTH)}}\n`,
    innermost: ['nested.go:2 def function f', `nested.go:${NESTED_DEPTH + 3} ref call leaf`],
  },
  java: {
    ext: 'java',
    bomb: bomb('class A { int[] x = ', '{'),
    nested: `${lines(NESTED_DEPTH, (i) => `class C${i} {\n`)}void leaf() {}\n${'}\n'.repeat(NESTED_DEPTH)}`,
    innermost: [`nested.java:${NESTED_DEPTH} def class C${NESTED_DEPTH - 1}`, `nested.java:${NESTED_DEPTH + 1} def method leaf`],
  },
};

describe('deep nesting in every language', () => {
  test.each(Object.entries(LANGUAGES))('%s: a bracket bomb times out, deeply nested scopes are tagged', async (_language, { ext, bomb, nested, innermost }) => {
    const root = await indexedRepo({ 'fine.py': GOOD_PY, [`nested.${ext}`]: nested });
    writeFileSync(join(root, `bomb.${ext}`), bomb);
    const index = await runCli(['index', root, '--json', '--file-timeout-ms', '500']);
    expectClean(index);
    expect(JSON.parse(index.stdout) as IndexJson).toMatchObject({ parsed: 0, reused: 2, skippedFiles: [{ path: `bomb.${ext}`, reason: 'timeout' }] });
    const tags = await cliTags(root, ['--file-timeout-ms', '500']);
    expect(tags).toEqual(expect.arrayContaining([...innermost, 'fine.py:1 def function fine']));
  });
});
