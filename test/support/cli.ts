import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The built binary, as the README's install makes it. */
export const CLI = fileURLToPath(new URL('../../dist/bundle/cli/main.js', import.meta.url));

const INJECT_FAULTS = new URL('./faults/injectFaults.mjs', import.meta.url).href;

export type Fault = 'crash' | 'exit' | 'throw' | 'hang' | 'stall' | 'slow-boot';

/** The environment of a CLI run whose parsing of `path` fails with `fault` (see faults/faultyExtractRecord.mjs; `slow-boot` in faults/injectFaults.mjs). */
export function faultEnv(fault: Fault, path: string): Record<string, string> {
  const nodeOptions = [process.env.NODE_OPTIONS, `--import=${INJECT_FAULTS}`].filter(Boolean).join(' ');
  return { NODE_OPTIONS: nodeOptions, REPOMAP_FAULT: `${fault}:${path}` };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `input` is written to the run's stdin, which is otherwise closed; `uid` and `gid` run it as
 * another user; `shell` is a /bin/sh script that runs it with `exec "$0" "$@"` (to set a ulimit).
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; uid?: number; gid?: number; shell?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const { cwd, uid, gid, shell } = options;
    const [file, argv] = shell === undefined ? [process.execPath, [CLI, ...args]] : ['/bin/sh', ['-c', shell, process.execPath, CLI, ...args]];
    const child = spawn(file, argv, { cwd, uid, gid, env: { ...process.env, ...options.env }, stdio: 'pipe' });
    child.stdin.end(options.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A run with no input, SIGKILLed if still going after `deadlineMs`: `hung` says it was. */
export function runCliWithin(args: string[], deadlineMs: number): Promise<CliResult & { hung: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let hung = false;
    const deadline = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr, hung });
    });
  });
}

/** Exactly one line on stderr, nothing on stdout, the documented exit code. */
export async function expectOneLineError(args: string[], code: number, message: RegExp | string, options: { cwd?: string } = {}): Promise<void> {
  const result = await runCli(args, options);
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  if (typeof message === 'string') expect(lines[0]).toBe(message);
  else expect(lines[0]).toMatch(message);
}

/** A throwaway repository holding `files` (relative path → content). */
export function makeRepo(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-test-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/**
 * A --file-timeout-ms that a small file sharing a run with a bad one does not reach on a loaded
 * machine: there, the first file of a cold worker took up to 0.2 s (2 cores, 16 runnable processes).
 */
export const SMALL_FILE_TIMEOUT_MS = 2000;

/**
 * A repository holding `files`, indexed once under the default limits. A test that then adds a
 * file for a limit to cut indexes those that must parse here first: a limit low enough for a
 * bomb to reach soon, a loaded machine can take any file past (see SMALL_FILE_TIMEOUT_MS).
 */
export async function indexedRepo(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = makeRepo(files);
  const summary = await indexJson(root);
  expect(summary).toMatchObject({ parsed: Object.keys(files).length, skippedFiles: [] });
  return root;
}

/** The JSON summary `repomap index --json` printed. */
export interface IndexJson {
  files: number;
  parsed: number;
  reused: number;
  removed: number;
  skipped: Record<string, number>;
  skippedFiles: { path: string; reason: string }[];
  defs: number;
  refs: number;
  seconds: number;
}

export async function indexJson(root: string, extraArgs: string[] = [], env?: Record<string, string>): Promise<IndexJson> {
  const result = await runCli(['index', root, '--json', ...extraArgs], { env });
  if (result.code !== 0) throw new Error(`repomap index failed (${result.code ?? result.signal}): ${result.stderr}`);
  return JSON.parse(result.stdout) as IndexJson;
}

/** `repomap tags` output as `path:line def|ref subkind name` lines, like fixtureTags. */
export async function cliTags(root: string, extraArgs: string[] = []): Promise<string[]> {
  const result = await runCli(['tags', root, ...extraArgs]);
  if (result.code !== 0) throw new Error(`repomap tags failed (${result.code ?? result.signal}): ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const tag = JSON.parse(line) as { rel_fname: string; line: number; kind: string; subkind: string; name: string };
      return `${tag.rel_fname}:${tag.line} ${tag.kind} ${tag.subkind} ${tag.name}`;
    });
}

/** The stage names of a `--verbose` run's timing line, in order. */
export function stagesOf(stderr: string): string[] {
  return [...(/timing: (.*)/.exec(stderr)?.[1] ?? '').matchAll(/([a-z ]+) [\d.]+ ms/g)].map((match) => match[1]!.trim());
}

/** A warm map's stages, no git history read: nothing parsed, no tables built, no tokenizer loaded. */
export const WARM_MAP_STAGES = [
  'open store',
  'discover',
  'crash check',
  'compare stamps',
  'save stamps',
  'tally',
  'read tables',
  'rank',
  'pack',
  'save computed',
];
