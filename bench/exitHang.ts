import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A fault campaign for the map that writes its whole output and never exits (seen twice in about
 * 500 runs of `map --explain --format json -t 512` on jackson-core, issue 25):
 *
 *   node dist/bench/exitHang.js DIR [--rounds N] [--deadline SECONDS]
 *
 * Each round indexes DIR into a fresh cache folder, then maps it as JSON, then with --explain.
 * A run past the deadline is the hang: its threads' kernel waits and, where gdb is installed,
 * every thread's native stack are printed, the run is killed and the campaign stops with exit 1.
 * It stops by itself after N rounds (default 200) with exit 0.
 */
const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));
const RUNS = [
  ['index', '--json'],
  ['map', '--format', 'json', '-t', '512'],
  ['map', '--explain', '--format', 'json', '-t', '512'],
];

function option(argv: string[], name: string, fallback: number): number {
  const at = argv.indexOf(name);
  const value = at === -1 ? fallback : Number(argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** What a stuck process's threads wait on, and their native stacks when gdb is there. */
function whereStuck(pid: number): string {
  const lines: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const read = (file: string) => readFileSync(`/proc/${pid}/task/${task}/${file}`, 'utf8').trim();
    lines.push(`thread ${task} ${read('comm')}: wchan ${read('wchan')}, syscall ${read('syscall').split(' ')[0]}`);
  }
  if (existsSync('/usr/bin/gdb')) {
    lines.push(execFileSync('gdb', ['-p', String(pid), '-batch', '-ex', 'thread apply all bt'], { encoding: 'utf8', timeout: 60_000 }));
  }
  return lines.join('\n');
}

function run(dir: string, cacheDir: string, args: string[], deadlineMs: number): Promise<{ code: number | string; stuck: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args, '--root', dir, '--cache-dir', cacheDir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    // Read everything, as any reader does: a full pipe is no hang of ours.
    child.stdout.resume();
    child.stderr.resume();
    let stuck: string | null = null;
    const timer = setTimeout(() => {
      stuck = whereStuck(child.pid!);
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? 'unknown', stuck });
    });
  });
}

const argv = process.argv.slice(2);
const dir = argv[0];
if (!dir || dir.startsWith('--')) {
  console.error('usage: node dist/bench/exitHang.js DIR [--rounds N] [--deadline SECONDS]');
  process.exit(1);
}
const rounds = option(argv, '--rounds', 200);
const deadlineMs = option(argv, '--deadline', 30) * 1000;
for (let round = 1; round <= rounds; round++) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-exit-hang-'));
  try {
    for (const args of RUNS) {
      const { code, stuck } = await run(dir, cacheDir, args, deadlineMs);
      if (stuck !== null) {
        console.log(`round ${round}: repomap ${args.join(' ')} did not exit within ${deadlineMs / 1000} s\n${stuck}`);
        process.exit(1);
      }
      if (code !== 0) console.log(`round ${round}: repomap ${args.join(' ')} exited ${code}`);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
console.log(`${rounds} rounds, no run past ${deadlineMs / 1000} s`);
