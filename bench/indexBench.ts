/**
 * `repomap index` on the corpus slices: cold and warm runs of the whole process (medians), the
 * single-thread limits (plain loops), files/s, and peak RSS. The target is the issue's: 1.25 ×
 * (extract loop / jobs + 0.4 s of pool start-up).
 *
 *   node dist/bench/indexBench.js [--corpora DIR] [--runs N] [--jobs N] [slice ...]
 *
 * Corpora come from ../shared/corpora/make-corpora.sh (default DIR: $REPOMAP_CORPORA or
 * /work/corpora); a missing corpus is built first.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { discoverFiles } from '../src/discover/discoverFiles.js';
import { extractRecord } from '../workers/extractRecord.js';
import { grammarFor } from '../workers/grammars.js';
import { DEFAULT_CORPORA, median, sliceRoot, SLICES_500 } from './corpora.js';

const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    loop: { type: 'string' },
    corpora: { type: 'string', default: DEFAULT_CORPORA },
    runs: { type: 'string', default: '5' },
    jobs: { type: 'string', default: String(availableParallelism()) },
  },
});
const runs = Number(values.runs);
const slices = positionals.length > 0 ? positionals : SLICES_500;

/** Wall seconds and peak RSS (MiB) of one whole `repomap index` process. */
function timedIndex(root: string, cacheDir: string): { seconds: number; peakMiB: number } {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, CLI, 'index', root, '--cache-dir', cacheDir, '--jobs', values.jobs!], {
    encoding: 'utf8',
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`index failed on ${root}: ${result.stderr}`);
  const peakKiB = Number(result.stderr.trim().split('\n').pop());
  return { seconds, peakMiB: peakKiB / 1024 };
}

/**
 * The single-thread limits, in plain loops in this thread: every file read, parsed and run
 * through the tags query (the definition), and read and fully extracted into a record
 * (the same work a worker does). Each loop runs in a fresh child process so neither warms the other.
 */
function plainLoopSeconds(root: string, work: 'parse-query' | 'extract'): { seconds: number; bytes: number } {
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--loop', work, root], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`plain loop failed on ${root}: ${result.stderr}`);
  return JSON.parse(result.stdout) as { seconds: number; bytes: number };
}

function runPlainLoop(work: string, root: string): void {
  const files = discoverFiles({ root }).files.filter((file) => file.language !== null);
  let bytes = 0;
  const started = performance.now();
  for (const file of files) {
    const text = readFileSync(join(root, file.path), 'utf8');
    bytes += file.size;
    if (work === 'extract') {
      extractRecord({ path: file.path, mtimeMs: file.mtimeMs, size: file.size, language: file.language!, text }, 60_000);
    } else {
      const grammar = grammarFor(file.language!);
      grammar.tagsQuery.matches(grammar.parser.parse(text).rootNode);
    }
  }
  process.stdout.write(JSON.stringify({ seconds: (performance.now() - started) / 1000, bytes }));
}

if (values.loop) {
  runPlainLoop(values.loop, positionals[0]!);
  process.exit(0);
}

console.log(
  `| slice | files | MB | parse+query loop s | extract loop s | cold s (median of ${runs}) | target s | ` +
    'cold files/s | warm s | peak RSS MiB |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const slice of slices) {
  const root = sliceRoot(values.corpora!, slice);
  const fileCount = discoverFiles({ root }).files.length;
  const parseQuery = plainLoopSeconds(root, 'parse-query');
  const loop = plainLoopSeconds(root, 'extract');
  const cacheDir = mkdtempSync(join(tmpdir(), `repomap-bench-${slice}-`));
  const cold: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < runs; i++) {
    rmSync(cacheDir, { recursive: true, force: true });
    const run = timedIndex(root, cacheDir);
    cold.push(run.seconds);
    peaks.push(run.peakMiB);
  }
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) warm.push(timedIndex(root, cacheDir).seconds);
  rmSync(cacheDir, { recursive: true, force: true });
  const target = 1.25 * (loop.seconds / Number(values.jobs) + 0.4);
  console.log(
    `| ${slice} | ${fileCount} | ${(loop.bytes / 1e6).toFixed(1)} | ${parseQuery.seconds.toFixed(2)} | ${loop.seconds.toFixed(2)} | ${median(cold).toFixed(2)} | ` +
      `${target.toFixed(2)} | ${Math.round(fileCount / median(cold))} | ${median(warm).toFixed(3)} | ${Math.max(...peaks).toFixed(0)} |`,
  );
}
