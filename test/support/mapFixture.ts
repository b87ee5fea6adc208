import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tiktoken } from 'tiktoken';
import { expect } from 'vitest';
import { runCli } from './cli.js';

/** The hand-checked map fixtures: `fixtures/map/<leaf>`, tested by `test/map/<leaf>.test.ts`. */
const FIXTURES = fileURLToPath(new URL('../../fixtures/map', import.meta.url));

/** A private copy of a fixture: the map writes its tag store into the root, and tests edit files. */
export function copyFixture(leaf: string): string {
  const root = mkdtempSync(join(tmpdir(), `repomap-map-${leaf}-`));
  cpSync(join(FIXTURES, leaf), root, { recursive: true });
  return root;
}

/** The flags of aider's rendering: the expected maps written before the signatures style was the default are aider's. */
export const AIDER_STYLE = ['--style', 'aider'];

/** What `repomap map --format json` prints. */
export interface RankedJson {
  files: { path: string; rank: number; definitions: { name: string; kind: string; line: number; score: number }[] }[];
  definitions: { path: string; name: string; score: number }[];
  totals: { files: number; definitions: number; references: number; tokens: number };
}

/** The hand-checked fixtures check aider's ranking, step by step: the task ranking has its own tests. */
export const AIDER_RANKING = ['--ranking', 'aider'];

export async function rankingOf(root: string, args: string[] = []): Promise<RankedJson> {
  const result = await runCli(['map', root, '--format', 'json', ...AIDER_RANKING, ...args]);
  if (result.code !== 0) throw new Error(`repomap map --format json failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as RankedJson;
}

/** The ranked files' paths, in rank order. */
export function filePaths(ranked: RankedJson): string[] {
  return ranked.files.map((file) => file.path);
}

/** `path name` of the first `count` ranked definitions (all of them without a count). */
export function topDefinitions(ranked: RankedJson, count = ranked.definitions.length): string[] {
  return ranked.definitions.slice(0, count).map(({ path, name }) => `${path} ${name}`);
}

export function scoreOf(ranked: RankedJson, path: string, name: string): number {
  const definition = ranked.definitions.find((candidate) => candidate.path === path && candidate.name === name);
  if (!definition) throw new Error(`${path} ${name} is not ranked`);
  return definition.score;
}

export function rankOf(ranked: RankedJson, path: string): number {
  const file = ranked.files.find((candidate) => candidate.path === path);
  if (!file) throw new Error(`${path} is not in the ranking`);
  return file.rank;
}

/**
 * The text map at a budget, run with --verbose: a full cl100k_base encode of it must be within
 * the budget and equal to the count the packer reported, since the packer sums per-line counts.
 */
export async function mapWithin(encoding: Tiktoken, root: string, budget: number, args: string[] = []): Promise<{ text: string; stderr: string }> {
  const result = await runCli(['map', root, '-t', String(budget), '--verbose', ...AIDER_RANKING, ...args]);
  if (result.code !== 0) throw new Error(`repomap map -t ${budget} failed (${result.code}): ${result.stderr}`);
  const tokens = encoding.encode(result.stdout).length;
  expect(tokens).toBeGreaterThan(0);
  expect(tokens).toBeLessThanOrEqual(budget);
  expect(result.stderr).toContain(`, ${tokens} tokens (budget ${budget})`);
  return { text: result.stdout, stderr: result.stderr };
}

/** The files a map shows, in order (with or without shown lines). */
export function filesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('│') && !line.startsWith('⋮'))
    .map((line) => line.replace(/:$/, ''));
}

/** A map text written as its lines, each ending in a newline. */
export function lines(...texts: string[]): string {
  return texts.map((text) => `${text}\n`).join('');
}
