import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';

/** The map's options on the polyglot fixture, through the CLI. */
const FIXTURE = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'repomap-map-options-'));
cpSync(FIXTURE, root, { recursive: true });
// A file with no tags: outside the graph, so it gets no rank.
writeFileSync(join(root, 'NOTES.txt'), 'Reprice the catalog nightly.\n');

/** The map in aider's style, which the expected lines below are in. */
async function map(args: string[]): Promise<{ text: string; stderr: string }> {
  const result = await runCli(['map', root, '--style', 'aider', ...args]);
  if (result.code !== 0) throw new Error(`repomap map failed (${result.code}): ${result.stderr}`);
  return { text: result.stdout, stderr: result.stderr };
}

/** The files a map shows, in order. */
function filesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('│') && !line.startsWith('⋮'))
    .map((line) => line.replace(/:$/, ''));
}

describe('repomap map options', () => {
  test('important files come first, even when a small budget leaves little else', async () => {
    const { text } = await map(['-t', '40']);
    expect(filesOf(text)[0]).toBe('README.md');
  });

  test('an anchored identifier is in the map at any budget; several definers share its weight', async () => {
    const { text, stderr } = await map(['-t', '120', '-a', 'seedCatalog', '-a', 'price_with_tax']);
    expect(text).toContain('│function seedCatalog(path) {');
    expect(text).toContain('│def price_with_tax(cents: int) -> int:');
    expect(text).toContain('│pub fn price_with_tax(cents: i64) -> i64 {');
    expect(stderr).toContain('anchor price_with_tax is defined in 2 files (api/server.py, pricing/src/lib.rs)');
  });

  test('an anchored file and an anchored FILE:IDENT', async () => {
    const { text } = await map(['-t', '80', '-a', join(root, 'scripts/seed.js'), '-a', `${join(root, 'web/src/api.ts')}:formatPrice`]);
    expect(filesOf(text)).toContain('scripts/seed.js');
    expect(text).toContain('│export const formatPrice = (cents: number): string => `$${(cents / 100).toFixed(2)}`;');
  });

  test('every anchor is in the map, or there is no map: anchors never give way to the budget', async () => {
    const both = ['-a', 'seedCatalog', '-a', `${join(root, 'client/src/bookstore/CatalogClient.java')}:findBooks`];
    const { text } = await map(['-t', '160', ...both]);
    expect(text).toContain('│function seedCatalog(path) {');
    expect(text).toContain('│    public List<Book> findBooks(int limit, int offset) {');
    // The first anchor alone would fit in 100 tokens; both need more, so there is no map.
    const tooSmall = await runCli(['map', root, '--style', 'aider', '-t', '100', ...both]);
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr.trim()).toMatch(/^repomap: no map fits in 100 tokens \(the anchors alone need \d+\)$/);
  });

  test('with --missing-files warn, a chat or mentioned file that is not in the repository is named in a warning', async () => {
    const { stderr } = await map(['-t', '100', '--missing-files', 'warn', '-m', join(root, 'api/nope.py'), '-c', join(root, 'web/src/Nope.tsx')]);
    expect(stderr).toContain(`chat file '${join(root, 'web/src/Nope.tsx')}' does not exist; ignored`);
    expect(stderr).toContain(`mentioned file '${join(root, 'api/nope.py')}' does not exist; ignored`);
  });

  test('an anchor that names nothing is an error', async () => {
    const result = await runCli(['map', root, '-a', 'NoSuchThing']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('repomap: anchor NoSuchThing: no such file, and no file defines it');
  });

  test('--max-context-window grows the budget when no file is in the chat, as aider does', async () => {
    const { stderr } = await map(['-t', '100', '--max-context-window', '4596', '-v']);
    expect(stderr).toContain('(budget 500)');
    const withChat = await map(['-t', '100', '--max-context-window', '4596', '-c', join(root, 'web/src/App.tsx'), '-v']);
    expect(withChat.stderr).toContain('(budget 100)');
  });

  test('--exclude-unranked leaves out files that received no rank', async () => {
    const all = filesOf((await map(['-t', '4096'])).text);
    const ranked = filesOf((await map(['-t', '4096', '--exclude-unranked'])).text);
    expect(all).toContain('NOTES.txt');
    expect(ranked).not.toContain('NOTES.txt');
    expect(ranked).toContain('README.md');
  });

  test('--format json prints the whole ranking when the budget cuts it, as at a budget that does not', async () => {
    // At 16 tokens the ranking is cut at 8 of its 24 (file, identifier) pairs: the JSON completes it, after the store
    // closed, from the PageRank a warm store kept (the map before saved it).
    await map(['-t', '16']);
    const cut = JSON.parse((await map(['--format', 'json', '-t', '16'])).text) as { files: unknown[]; definitions: unknown[]; totals: { tokens: number } };
    const whole = JSON.parse((await map(['--format', 'json', '-t', '256'])).text) as { files: unknown[]; definitions: unknown[] };
    expect(cut.totals.tokens).toBeGreaterThan(0);
    expect(cut.totals.tokens).toBeLessThanOrEqual(16);
    expect(cut.definitions).toHaveLength(24);
    expect(cut.definitions).toEqual(whole.definitions);
    expect(cut.files).toEqual(whole.files);
  });

  test('--format json prints the ranking', async () => {
    const ranked = JSON.parse((await map(['--format', 'json', '-t', '256'])).text) as {
      files: { path: string; rank: number; definitions: { name: string; kind: string; line: number; score: number }[] }[];
      definitions: { path: string; name: string; score: number }[];
      totals: { files: number; definitions: number; references: number; tokens: number };
    };
    expect(ranked.totals).toMatchObject({ files: 9, definitions: 25, references: 64 });
    expect(ranked.totals.tokens).toBeGreaterThan(0);
    expect(ranked.totals.tokens).toBeLessThanOrEqual(256);
    const ranks = ranked.files.map((file) => file.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const scores = ranked.definitions.map((definition) => definition.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(ranked.files.find((file) => file.path === 'catalog/catalog.go')!.definitions[0]).toMatchObject({ name: 'Book', kind: 'class', line: 6 });
  });
});
