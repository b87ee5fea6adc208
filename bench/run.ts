/**
 * The benchmark suite: `npm run bench` (full: every 500-file slice and the scaling curve, about
 * 17 minutes here), `npm run bench -- --quick` (mixed-500 only, under a minute), and
 * `npm run bench -- --compare A.json B.json`. Writes bench/results/<date>-<sha>.{json,md,svg}
 * and prints the Markdown report; `--report A.json` prints it again from a results file.
 * `--quality` adds the quality harness (bench/quality/) to a run, `--quality-only` runs it alone.
 *
 *   node dist/bench/run.js [--quick] [--runs N] [--corpora DIR] [--no-peers] [--slices a,b] [--no-scaling]
 *     [--no-real] [--real-mirrors DIR]
 *     [--quality | --quality-only] [--quality-parts issues,slices] [--quality-variants a,b] [--quality-limit N]
 *     [--quality-repos a,b] [--quality-chat-files N] [--quality-data DIR] [--quality-mirrors DIR] [--quality-scratch DIR]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_CORPORA, SCALING_SLICES, SLICES_500, sliceRoot, sliceStats } from './corpora.js';
import { plainLoop } from './limits.js';
import { haveGnuTime, measure, RunFailed, timedRun } from './measure.js';
import { type Peer, setUpPeers } from './peers.js';
import { scalingPlot } from './plot.js';
import { compareIssues } from './quality/qualityCompare.js';
import { qualityOptions } from './quality/qualityFlags.js';
import { runQuality } from './quality/runQuality.js';
import { REAL_REPOSITORIES, realRepository } from './realRepos.js';
import { compareReport, markdownReport } from './report.js';
import type { BenchResults } from './results.js';
import { type Counts, runOurScenarios, runRealScenarios } from './scenarios.js';

const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));
/** Peers are not run where a run cannot end well here, with the reason in the report. */
const PEER_LIMITS: Partial<Record<Peer['name'], { files: number; reason: string }>> = {
  'llm-code-highlighter': { files: 1000, reason: 'its WASM tree-sitter aborts out of memory on scale-2k (4.4 GB peak, after 37 s)' },
};

const { values, positionals } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    compare: { type: 'boolean', default: false },
    report: { type: 'string' },
    runs: { type: 'string' },
    corpora: { type: 'string', default: DEFAULT_CORPORA },
    'no-peers': { type: 'boolean', default: false },
    'no-real': { type: 'boolean', default: false },
    'real-mirrors': { type: 'string' },
    'no-scaling': { type: 'boolean', default: false },
    slices: { type: 'string' },
    quality: { type: 'boolean', default: false },
    'quality-only': { type: 'boolean', default: false },
    'quality-parts': { type: 'string' },
    'quality-variants': { type: 'string' },
    'quality-limit': { type: 'string' },
    'quality-repos': { type: 'string' },
    'quality-chat-files': { type: 'string' },
    'quality-data': { type: 'string' },
    'quality-mirrors': { type: 'string' },
    'quality-scratch': { type: 'string' },
  },
  allowPositionals: true,
});

if (values.compare) {
  if (positionals.length !== 2) {
    console.error('--compare takes two results files: --compare A.json B.json');
    process.exit(1);
  }
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as BenchResults;
  const [a, b] = [read(positionals[0]!), read(positionals[1]!)];
  const { text, regressions } = compareReport(a, b);
  process.stdout.write(text);
  if (a.quality?.issues && b.quality?.issues) process.stdout.write(`\n${compareIssues(a.quality.issues, b.quality.issues)}`);
  process.exit(regressions > 0 ? 1 : 0);
}

if (values.report) {
  process.stdout.write(markdownReport(JSON.parse(readFileSync(values.report, 'utf8')) as BenchResults));
  process.exit(0);
}

const qualityOnly = values['quality-only'];
const quick = values.quick;
const counts: Counts = { warmup: 1, runs: Number(values.runs ?? (quick ? 3 : 5)) };
const slices = qualityOnly ? [] : (values.slices?.split(',') ?? (quick ? ['mixed-500'] : SLICES_500));
const scaling = qualityOnly || quick || values['no-scaling'] ? [] : SCALING_SLICES.filter((slice) => !slices.includes(slice));
const jobs = availableParallelism();
const { peers, missing } = qualityOnly || values['no-peers'] ? { peers: [], missing: [] } : setUpPeers();

const results: BenchResults = {
  meta: {
    date: new Date().toISOString().slice(0, 10),
    commit: commitName(),
    mode: qualityOnly ? 'quality' : quick ? 'quick' : 'full',
    node: process.version,
    cpus: cpus().length,
    jobs,
    warmup: counts.warmup,
    runs: counts.runs,
    gnuTime: haveGnuTime,
    peers: Object.fromEntries(peers.map((peer) => [peer.name, peer.version])),
  },
  slices: {},
  scenarios: [],
  limits: {},
  skipped: missing.map(({ name, reason }) => ({ slice: 'all', tool: name, reason })),
};
if (!haveGnuTime) console.error('no /usr/bin/time (Debian package time): CPU time and peak RSS are not measured');

const started = performance.now();
for (const slice of [...slices, ...scaling]) {
  const root = sliceRoot(values.corpora, slice);
  const stats = sliceStats(root);
  results.slices[slice] = stats;
  const full = slices.includes(slice);
  // Along the scaling curve, fewer runs as slices grow: the 50k slice's cold index takes minutes.
  const sliceCounts = full ? counts : stats.files > 20_000 ? { warmup: 0, runs: 1 } : { warmup: 0, runs: Math.min(counts.runs, 3) };
  progress(`${slice}: ${stats.files} files, ${(stats.bytes / 1e6).toFixed(1)} MB`);
  results.scenarios.push(...runOurScenarios(slice, root, { counts: sliceCounts, all: full }));
  if (full) results.limits[slice] = { parseQuery: plainLoop(root, 'parse-query'), extract: plainLoop(root, 'extract') };
  for (const peer of peers) runPeer(peer, slice, root, stats.files, sliceCounts);
}

// Real repositories (bench/realRepos.ts): fetched once, skipped with a message when they cannot be.
if (!qualityOnly && !quick && !values['no-real']) {
  for (const repo of REAL_REPOSITORIES) {
    const fetched = realRepository(repo, values['real-mirrors']);
    if ('skipped' in fetched) {
      console.error(`skipping ${repo.name}: ${fetched.skipped}`);
      results.skipped.push({ slice: repo.name, tool: 'repomap', reason: fetched.skipped });
      continue;
    }
    const stats = sliceStats(fetched.root);
    results.real ??= {};
    results.real[repo.name] = { ...stats, github: repo.github, commit: repo.commit };
    progress(`${repo.name}: ${stats.files} files`);
    results.scenarios.push(...runRealScenarios(repo.name, fetched.root, counts));
  }
}

if (qualityOnly || values.quality) {
  results.quality = await runQuality({ ...qualityOptions(values, values.slices?.split(',') ?? SLICES_500), progress });
}

mkdirSync(RESULTS_DIR, { recursive: true });
const base = join(RESULTS_DIR, `${results.meta.date}-${results.meta.commit}${qualityOnly ? '-quality' : quick ? '-quick' : ''}`);
const report = markdownReport(results);
writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 1)}\n`);
writeFileSync(`${base}.md`, report);
if (!qualityOnly) writeFileSync(`${base}.svg`, scalingPlot(results));
process.stdout.write(report);
console.error(`\nwrote ${base}.json, .md${qualityOnly ? '' : ' and .svg'} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);

function runPeer(peer: Peer, slice: string, root: string, files: number, sliceCounts: Counts): void {
  const limit = PEER_LIMITS[peer.name];
  if (limit && files > limit.files) {
    results.skipped.push({ slice, tool: peer.name, reason: `not run above ${limit.files} files: ${limit.reason}` });
    return;
  }
  const outDir = mkdtempSync(join(tmpdir(), `repomap-bench-${peer.name}-`));
  try {
    const [command, args] = peer.command(root, outDir);
    const measurement = measure(() => timedRun(command, args), sliceCounts);
    results.scenarios.push({ slice, scenario: peer.scenario, tool: peer.name, measurement });
  } catch (error) {
    if (!(error instanceof RunFailed)) throw error;
    results.skipped.push({ slice, tool: peer.name, reason: `failed, ${error.reason.slice(0, 300)}` });
    progress(`${peer.name} failed on ${slice}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function commitName(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return 'unknown';
  }
}

function progress(message: string): void {
  console.error(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${message}`);
}
