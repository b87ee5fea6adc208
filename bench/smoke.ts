import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Smoke run on real repositories: `node dist/bench/smoke.js DIR...` runs every command a user
 * would on each work tree (a cold and a warm index, the default map, a map for a task, the JSON
 * map at a budget that cuts the ranking, tags) and reports each run that breaks the CLI's
 * contract: an exit code other than 0, a stack trace or a signal, a stderr line not ours, an
 * empty output. Fixtures never cut a ranking at the budget; real trees do.
 */
const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));

const RUNS: readonly { name: string; args: readonly string[] }[] = [
  { name: 'index (cold)', args: ['index', '--json'] },
  { name: 'index (warm)', args: ['index', '--json'] },
  { name: 'map', args: ['map'] },
  { name: 'map --query', args: ['map', '--query', 'the request fails with a timeout when the connection is closed'] },
  { name: 'map --format json', args: ['map', '--format', 'json', '-t', '512'] },
  { name: 'map --ranking aider --format json', args: ['map', '--ranking', 'aider', '--style', 'aider', '--format', 'json', '-t', '512'] },
  { name: 'tags', args: ['tags'] },
];

function smoke(dir: string): string[] {
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-smoke-'));
  const problems: string[] = [];
  try {
    for (const { name, args } of RUNS) {
      const started = performance.now();
      const run = spawnSync(process.execPath, [CLI, args[0]!, dir, '--cache-dir', cacheDir, ...args.slice(1)], { encoding: 'utf8', maxBuffer: 1 << 30 });
      const ms = Math.round(performance.now() - started);
      const stderr = run.stderr.split('\n').filter(Boolean);
      const broken = [
        run.status !== 0 && `exit ${run.status ?? run.signal}`,
        stderr.some((line) => /^\s+at /.test(line)) && 'a stack trace',
        stderr.some((line) => !line.startsWith('repomap: ')) && 'a stderr line not ours',
        run.stdout.trim() === '' && 'no output',
      ].filter((problem): problem is string => typeof problem === 'string');
      console.log(`${dir}\t${name}\t${ms} ms\t${broken.length === 0 ? 'ok' : broken.join(', ')}`);
      if (broken.length > 0) problems.push(`${dir} ${name}: ${broken.join(', ')}: ${stderr.slice(0, 3).join(' | ')}`);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  return problems;
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node dist/bench/smoke.js DIR...');
  process.exit(1);
}
const problems = dirs.flatMap(smoke);
for (const problem of problems) console.error(problem);
process.exit(problems.length === 0 ? 0 : 1);
