import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get_encoding } from 'tiktoken';
import { MAP_FORMAT_NAMES } from '../src/render/formats.js';
import { type TreeArguments, treeArguments } from './treeArguments.js';

/**
 * Smoke run on real repositories: `node dist/bench/smoke.js DIR...` runs every command and
 * format a user would on each work tree, with arguments taken from the tree itself (its most
 * referenced defined name, a file defining it, a line referencing it), and reports each run that
 * breaks the CLI's contract: an exit code other than the documented ones (0, or 2 for nothing
 * found), a stack trace or a signal, a stderr line not ours, an empty output where one is due,
 * JSON that does not parse, a budgeted output over its budget, or a run past its deadline.
 * Fixtures never cut a ranking at the budget; real trees do.
 */
const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));
/** A run taking longer is a hang: the slowest real command measured takes a few seconds. */
const DEADLINE_MS = 120_000;
const BUDGET = 512;

const FOUND_OR_NOT = [0, 2] as const;

/** What one run must give: its exit code, whether stdout holds JSON, and the budget its text must fit. */
interface SmokeRun {
  name: string;
  args: readonly string[];
  /** The exit codes it may end with; default 0 alone. */
  exits?: readonly number[];
  json?: boolean;
  budget?: number;
}

/** Every registered format, so that a new one is smoke-tested too. */
const MAP_FORMATS = MAP_FORMAT_NAMES;

/** The runs on a tree; `artifact`, a path outside it for export and import. */
function runsFor(tree: TreeArguments, artifact: string): SmokeRun[] {
  return [
    { name: 'index (cold)', args: ['index', '--json'], json: true },
    { name: 'index (warm)', args: ['index', '--json'], json: true },
    { name: 'map', args: ['map'], budget: 1024 },
    { name: 'map --query', args: ['map', '--query', `${tree.name} fails with a timeout when the connection is closed`], budget: 1024 },
    ...MAP_FORMATS.map((format) => ({ name: `map --format ${format}`, args: ['map', '--format', format, '-t', String(BUDGET)], budget: BUDGET })),
    { name: 'map --format json', args: ['map', '--format', 'json', '-t', String(BUDGET)], json: true },
    { name: 'map --explain --format json', args: ['map', '--explain', '--format', 'json', '-t', String(BUDGET)], json: true },
    {
      name: 'map --ranking aider --format json',
      args: ['map', '--ranking', 'aider', '--style', 'aider', '--format', 'json', '-t', String(BUDGET)],
      json: true,
    },
    { name: 'tags', args: ['tags'] },
    { name: `find ${tree.name}`, args: ['find', tree.name] },
    { name: `find ${tree.name} --json`, args: ['find', tree.name, '--json', '--context', '2'], json: true },
    { name: 'find (no such name)', args: ['find', 'NoSuchNameAnywhere_xyz'], exits: [2] },
    { name: `deps ${tree.file}`, args: ['deps', tree.file, '--json', '--depth', '2'], json: true, exits: FOUND_OR_NOT },
    { name: `refs ${tree.file}`, args: ['refs', tree.file, '--json'], json: true, exits: FOUND_OR_NOT },
    { name: `at ${tree.position}`, args: ['at', tree.position], exits: FOUND_OR_NOT },
    { name: `at ${tree.position} --json`, args: ['at', tree.position, '--json'], json: true, exits: FOUND_OR_NOT },
    { name: 'outline', args: ['outline', '--max-tokens', String(BUDGET)], budget: BUDGET },
    { name: `outline ${tree.folder} --json`, args: ['outline', tree.folder, '--json'], json: true },
    ...MAP_FORMATS.map((format) => ({
      name: `outline --format ${format}`,
      args: ['outline', '--format', format, '--max-tokens', String(BUDGET)],
      budget: BUDGET,
    })),
    { name: 'export', args: ['export', artifact, '--json'], json: true },
    { name: 'import', args: ['import', artifact, '--json'], json: true },
    { name: 'map after import', args: ['map'], budget: 1024 },
  ];
}

const cl100k = get_encoding('cl100k_base');

function smoke(dir: string): string[] {
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-smoke-'));
  const problems: string[] = [];
  try {
    // `index (cold)` runs first below; the arguments' tags run indexes too, so the cold index is its own cache.
    const tree = treeArguments(dir);
    for (const { name, args, exits = [0], json, budget } of runsFor(tree, join(cacheDir, '..', `${basename(cacheDir)}.rmi`))) {
      const started = performance.now();
      // The root by --root: a positional after the command would be read as NAME or FILE.
      const run = spawnSync(process.execPath, [CLI, ...args, '--root', dir, '--cache-dir', cacheDir], {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
        timeout: DEADLINE_MS,
        killSignal: 'SIGKILL',
      });
      const ms = Math.round(performance.now() - started);
      const stderr = run.stderr.split('\n').filter(Boolean);
      const broken = [
        run.error && `no exit within ${DEADLINE_MS / 1000} s`,
        !exits.includes(run.status ?? -1) && `exit ${run.status ?? run.signal}`,
        stderr.some((line) => /^\s+at /.test(line)) && 'a stack trace',
        stderr.some((line) => !line.startsWith('repomap: ')) && 'a stderr line not ours',
        run.status === 0 && run.stdout.trim() === '' && 'no output',
        json && run.stdout.trim() !== '' && !parses(run.stdout) && 'JSON that does not parse',
        budget !== undefined &&
          run.status === 0 &&
          cl100k.encode_ordinary(run.stdout).length > budget &&
          `${cl100k.encode_ordinary(run.stdout).length} tokens over a budget of ${budget}`,
      ].filter((problem): problem is string => typeof problem === 'string');
      console.log(`${dir}\t${name}\t${ms} ms\texit ${run.status}\t${broken.length === 0 ? 'ok' : broken.join(', ')}`);
      if (broken.length > 0) problems.push(`${dir} ${name}: ${broken.join(', ')}: ${stderr.slice(0, 3).join(' | ')}`);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(`${cacheDir}.rmi`, { force: true });
  }
  return problems;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const dirs = process.argv.slice(2);
const missing = dirs.filter((dir) => !statSync(dir, { throwIfNoEntry: false })?.isDirectory());
if (dirs.length === 0 || missing.length > 0) {
  console.error(missing.length > 0 ? `not a folder: ${missing.join(', ')}` : 'usage: node dist/bench/smoke.js DIR...');
  process.exit(1);
}
const problems = dirs.flatMap(smoke);
for (const problem of problems) console.error(problem);
process.exit(problems.length === 0 ? 0 : 1);
