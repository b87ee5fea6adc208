import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFiles } from '../src/discover/discoverFiles.js';
import { openRepoMap } from '../src/index.js';
import { ownInode } from './corpora.js';
import { type Measurement, measure, type Sample, summarize, timedRun } from './measure.js';

/** The `repomap` binary as the README's install makes it. */
const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));
const IN_PROCESS_MAPS = 30;

export interface ScenarioResult {
  slice: string;
  scenario: string;
  tool: string;
  measurement: Measurement;
}

export interface Counts {
  warmup: number;
  runs: number;
}

/**
 * What to run on a slice: everything on the 500-file slices; along the scaling curve the cold
 * index, the warm map, the maps after a touch and after an edit, an export and an import.
 */
export interface OurScenarios {
  counts: Counts;
  all: boolean;
}

const repomap = (args: string[]) => timedRun(process.execPath, [CLI, ...args]);
const result = (slice: string, scenario: string, measurement: Measurement, tool = 'repomap'): ScenarioResult => ({ slice, scenario, tool, measurement });

export function runOurScenarios(slice: string, root: string, plan: OurScenarios): ScenarioResult[] {
  const cacheDir = mkdtempSync(join(tmpdir(), `repomap-bench-${slice}-`));
  const store = ['--cache-dir', cacheDir];
  const dropStore = () => rmSync(cacheDir, { recursive: true, force: true });
  const { counts } = plan;
  const touched = join(root, discoverFiles({ root }).files.find((file) => file.language !== null)!.path);
  ownInode(touched);
  let tick = Date.now() / 1000;
  const touch = () => utimesSync(touched, tick, ++tick);
  // An edit: the file's bytes change (a newline added, then taken away), so it is parsed and the tables derived again.
  const original = readFileSync(touched);
  let edits = 0;
  const edit = () => writeFileSync(touched, ++edits % 2 === 1 ? Buffer.concat([original, Buffer.from('\n')]) : original);
  const out: ScenarioResult[] = [];
  try {
    out.push(
      result(
        slice,
        'cold index',
        measure(() => repomap(['index', root, ...store]), counts, dropStore),
      ),
    );
    if (plan.all) {
      out.push(
        result(
          slice,
          'warm index',
          measure(() => repomap(['index', root, ...store]), counts),
        ),
      );
      out.push(
        result(
          slice,
          'incremental index',
          measure(() => repomap(['index', root, ...store]), counts, touch),
        ),
      );
      out.push(
        result(
          slice,
          'cold map',
          measure(() => repomap(['map', root, ...store]), counts, dropStore),
        ),
      );
    }
    out.push(...warmMaps(slice, root, store, counts, plan.all));
    // A checkout or a copy: new stamps, the same bytes (read, restamped, no table derived again).
    out.push(
      result(
        slice,
        'map after a touch',
        measure(() => repomap(['map', root, ...store]), counts, touch),
      ),
    );
    // An agent's loop: a file edited, then a map (the file parsed, the tables derived again).
    out.push(
      result(
        slice,
        'map after an edit',
        measure(() => repomap(['map', root, ...store]), counts, edit),
      ),
    );
    out.push(...artifactScenarios(slice, root, store, counts));
    if (plan.all) out.push(result(slice, 'in-process map', inProcessMaps(root, cacheDir)));
  } finally {
    writeFileSync(touched, original);
    dropStore();
  }
  return out;
}

/**
 * A nightly job's artifact: `export` from the warm store, `import` into a copy of the tree (its
 * files all with new stamps: each is read and its content id compared), and the first map there.
 */
function artifactScenarios(slice: string, root: string, store: string[], counts: Counts): ScenarioResult[] {
  const scratch = mkdtempSync(join(tmpdir(), `repomap-bench-artifact-${slice}-`));
  const artifact = join(scratch, 'index.rmi');
  const copy = join(scratch, 'tree');
  const copyStore = ['--cache-dir', join(scratch, 'store')];
  const dropCopyStore = () => rmSync(join(scratch, 'store'), { recursive: true, force: true });
  try {
    const exported = result(
      slice,
      'export',
      measure(() => repomap(['export', artifact, root, ...store]), counts),
    );
    cpSync(root, copy, { recursive: true, filter: (path) => !path.endsWith('/.repomap') });
    const imported = result(
      slice,
      'import',
      measure(() => repomap(['import', artifact, copy, ...copyStore]), counts, dropCopyStore),
    );
    const reimport = () => {
      dropCopyStore();
      repomap(['import', artifact, copy, ...copyStore]);
    };
    const firstMap = result(
      slice,
      'first map after import',
      measure(() => repomap(['map', copy, ...copyStore]), counts, reimport),
    );
    return [exported, imported, firstMap];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Warm maps at 1024 and 8192 tokens, without and with a chat file (the top-ranked file), in
 * turns with bare `node -e 0`, so the ratio to start-up holds on a noisy machine.
 */
function warmMaps(slice: string, root: string, store: string[], counts: Counts, all: boolean): ScenarioResult[] {
  const chatFile = topRankedFile(root, store);
  const variants: [string, string[]][] = [['warm map 1024', ['-t', '1024']]];
  if (all) {
    variants.push(
      ['warm map 8192', ['-t', '8192']],
      ['warm map 1024 + chat file', ['-t', '1024', '-c', chatFile]],
      ['warm map 8192 + chat file', ['-t', '8192', '-c', chatFile]],
    );
  }
  const runs: [string, () => Sample][] = [
    ['node -e 0', () => timedRun(process.execPath, ['-e', '0'])],
    ...variants.map(([name, args]): [string, () => Sample] => [name, () => repomap(['map', root, ...store, ...args])]),
  ];
  // Each variant once first, so its lines' token counts are stored: a warm map loads no tokenizer.
  for (const [, run] of runs) run();
  const samples = runs.map((): Sample[] => []);
  for (let i = 0; i < counts.warmup + counts.runs; i++) {
    runs.forEach(([, run], k) => {
      const sample = run();
      if (i >= counts.warmup) samples[k]!.push(sample);
    });
  }
  return runs.map(([name], k) => result(slice, name, summarize(samples[k]!), name === 'node -e 0' ? 'node' : 'repomap'));
}

function topRankedFile(root: string, store: string[]): string {
  const ranked = spawnSync(process.execPath, [CLI, 'map', root, ...store, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (ranked.status !== 0) throw new Error(`repomap map --format json failed on ${root}: ${ranked.stderr}`);
  return join(root, (JSON.parse(ranked.stdout) as { files: { path: string }[] }).files[0]!.path);
}

/** Repeated maps through the library with the repository open, in a child process of its own. */
function inProcessMaps(root: string, cacheDir: string): Measurement {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'in-process', root, cacheDir], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`in-process maps failed on ${root}: ${child.stderr}`);
  const times = JSON.parse(child.stdout) as number[];
  return summarize(times.map((wallMs) => ({ wallMs, cpuMs: null, rssMiB: null })));
}

async function timeInProcessMaps(root: string, cacheDir: string): Promise<number[]> {
  const mapper = await openRepoMap({ root, cacheDir });
  const times: number[] = [];
  // The first map decodes the tables; the repeated ones are what a long-lived agent pays.
  await mapper.map();
  for (let i = 0; i < IN_PROCESS_MAPS; i++) {
    const started = performance.now();
    await mapper.map();
    times.push(performance.now() - started);
  }
  await mapper.close();
  return times;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'in-process') {
  process.stdout.write(JSON.stringify(await timeInProcessMaps(process.argv[3]!, process.argv[4]!)));
}

/**
 * A real repository: its warm map at 1024 tokens in turns with `node -e 0`, and the median of
 * each stage `--verbose` reports over the same number of maps (scenario `stage <name>`), so the
 * report says where the time goes.
 */
export function runRealScenarios(name: string, root: string, counts: Counts): ScenarioResult[] {
  const cacheDir = mkdtempSync(join(tmpdir(), `repomap-bench-real-${name}-`));
  const store = ['--cache-dir', cacheDir];
  try {
    repomap(['index', root, ...store]);
    const out = warmMaps(name, root, store, counts, false);
    const stages = new Map<string, number[]>();
    for (let i = 0; i < counts.runs; i++) {
      const run = spawnSync(process.execPath, [CLI, 'map', root, ...store, '--verbose'], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const timing = /timing: (.*)/.exec(run.stderr)?.[1] ?? '';
      for (const [, stage, ms] of timing.matchAll(/([a-z ]+) ([\d.]+) ms/g)) {
        const list = stages.get(stage!.trim()) ?? [];
        list.push(Number(ms));
        stages.set(stage!.trim(), list);
      }
    }
    for (const [stage, times] of stages) out.push(result(name, `stage ${stage}`, summarize(times.map((wallMs) => ({ wallMs, cpuMs: null, rssMiB: null })))));
    return out;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
