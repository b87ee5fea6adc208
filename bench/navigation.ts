import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type Sample, timedRun } from './measure.js';
import { treeArguments } from './treeArguments.js';

/**
 * The navigation commands' speed on a warm store, whole process, each in turns with bare
 * `node -e 0` so the ratio holds on a noisy machine: `node dist/bench/navigation.js [--runs N]
 * DIR...` prints per tree the median wall and CPU time of each command and its ratio to Node's
 * start-up (the budget: 2.5× on 500 files; `find` and `at` under 0.5 s at 10,000 files).
 * Arguments come from each tree (bench/treeArguments.ts).
 */
const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));

function commandsFor(dir: string): [string, string[]][] {
  const tree = treeArguments(dir);
  return [
    ['map', ['map']],
    [`find ${tree.name}`, ['find', tree.name]],
    [`deps ${tree.file}`, ['deps', tree.file]],
    [`refs ${tree.file}`, ['refs', tree.file]],
    [`at ${tree.position}`, ['at', tree.position]],
    [`outline ${tree.folder}`, ['outline', tree.folder]],
  ];
}

function bench(dir: string, runs: number): void {
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-nav-bench-'));
  try {
    const store = ['--root', dir, '--cache-dir', cacheDir];
    const index = spawnSync(process.execPath, [CLI, 'index', ...store], { encoding: 'utf8' });
    if (index.status !== 0) throw new Error(`index failed on ${dir}: ${index.stderr}`);
    const commands = commandsFor(dir);
    // Exit 2 (nothing found) is a measured answer too: timedRun takes only 0, so those run through spawnSync.
    const run = (args: string[]) => (): Sample => {
      const started = performance.now();
      const result = spawnSync(process.execPath, [CLI, ...args, ...store], { stdio: 'ignore' });
      if (result.status !== 0 && result.status !== 2) throw new Error(`${args.join(' ')} exited ${result.status ?? result.signal}`);
      return { wallMs: performance.now() - started, cpuMs: null, rssMiB: null };
    };
    const turns: [string, () => Sample][] = [
      ['node -e 0', () => timedRun(process.execPath, ['-e', '0'])],
      ...commands.map(([name, args]): [string, () => Sample] => [name, run(args)]),
    ];
    // Each once first: the derived tables, file ranks and token counts are then stored.
    for (const [, turn] of turns) turn();
    const samples = turns.map((): number[] => []);
    for (let i = 0; i < runs; i++) {
      turns.forEach(([, turn], k) => {
        samples[k]!.push(turn().wallMs);
      });
    }
    const node = median(samples[0]!);
    console.log(`\n${dir} (${runs} runs each, in turns; median wall ms, × node -e 0)`);
    turns.forEach(([name], k) => {
      const ms = median(samples[k]!);
      console.log(`  ${name.padEnd(48)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / node).toFixed(2)}×`);
    });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv.splice(runsAt, 2)[1]) : 10;
if (argv.length === 0 || !Number.isInteger(runs) || runs < 1 || argv.some((dir) => !existsSync(dir))) {
  console.error('usage: node dist/bench/navigation.js [--runs N] DIR...');
  process.exit(1);
}
for (const dir of argv) bench(dir, runs);
