/**
 * `repomap map` with a warm store on the corpus slices: the whole process at the default budget
 * against bare `node -e 0`, run in turns so drift on a noisy machine hits both alike (medians),
 * and repeated maps through the library with the repository kept open (openRepoMap).
 *
 *   node dist/bench/mapBench.js [--corpora DIR] [--runs N] [slice ...]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openRepoMap } from '../src/index.js';
import { DEFAULT_CORPORA, median, sliceRoot, SLICES_500 } from './corpora.js';

const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));
const IN_PROCESS_MAPS = 30;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'in-process': { type: 'string' },
    corpora: { type: 'string', default: DEFAULT_CORPORA },
    runs: { type: 'string', default: '10' },
  },
});

function wallMs(command: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${[command, ...args].join(' ')} failed: ${result.stderr}`);
  return ms;
}

/** Repeated maps in this process with the repository open; prints the median of all but the first. */
async function inProcess(root: string, cacheDir: string): Promise<void> {
  const mapper = await openRepoMap({ root, cacheDir });
  const times: number[] = [];
  for (let i = 0; i <= IN_PROCESS_MAPS; i++) {
    const started = performance.now();
    await mapper.map();
    times.push(performance.now() - started);
  }
  await mapper.close();
  process.stdout.write(JSON.stringify({ firstMs: times[0], medianMs: median(times.slice(1)) }));
}

if (values['in-process']) {
  await inProcess(values['in-process'], positionals[0]!);
  process.exit(0);
}

const runs = Number(values.runs);
const slices = positionals.length > 0 ? positionals : SLICES_500;
console.log(`| slice | node -e 0 ms | repomap map ms | ratio | in-process first map ms | in-process repeated map ms (median of ${IN_PROCESS_MAPS}) |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const slice of slices) {
  const root = sliceRoot(values.corpora!, slice);
  const cacheDir = mkdtempSync(join(tmpdir(), `repomap-bench-${slice}-`));
  const map = [CLI, 'map', root, '--cache-dir', cacheDir];
  // Warm: the store indexed, the tables built, the default map's line counts saved.
  wallMs(process.execPath, map);
  const bare: number[] = [];
  const mapped: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(wallMs(process.execPath, ['-e', '0']));
    mapped.push(wallMs(process.execPath, map));
  }
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--in-process', root, cacheDir], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`in-process maps failed on ${slice}: ${child.stderr}`);
  const repeated = JSON.parse(child.stdout) as { firstMs: number; medianMs: number };
  rmSync(cacheDir, { recursive: true, force: true });
  console.log(
    `| ${slice} | ${median(bare).toFixed(1)} | ${median(mapped).toFixed(1)} | ${(median(mapped) / median(bare)).toFixed(2)} | ` +
      `${repeated.firstMs.toFixed(1)} | ${repeated.medianMs.toFixed(1)} |`,
  );
}
