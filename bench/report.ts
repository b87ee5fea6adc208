import { SCALING_SLICES, SLICES_500 } from './corpora.js';
import type { Measurement } from './measure.js';
import { qualityReport } from './quality/qualityReport.js';
import { type BenchResults, find } from './results.js';

/** The Markdown report of a run: what the README quotes and bench/BASELINE.md keeps. */
export function markdownReport(results: BenchResults): string {
  const { meta } = results;
  const header =
    meta.mode === 'quality'
      ? `Node ${meta.node}, ${meta.cpus} cores, pool of ${meta.jobs}; the quality harness alone (bench/quality/).`
      : `Node ${meta.node}, ${meta.cpus} cores, pool of ${meta.jobs}; ${meta.warmup} warm-up run(s), then median [min–max] of ${meta.runs}. ` +
        `Wall time of the whole process${meta.gnuTime ? '; CPU time and peak RSS from GNU time' : ' (no GNU time here: no CPU time or RSS)'}. ` +
        `Peers: ${
          Object.entries(meta.peers)
            .map(([name, version]) => `${name} ${version}`)
            .join(', ') || 'none'
        }.`;
  const sections = [
    `# repomap benchmark: ${meta.mode} run, ${meta.date}, commit ${meta.commit}`,
    header,
    corporaTable(results),
    indexTable(results),
    mapTable(results),
    artifactTable(results),
    realTable(results),
    peerTable(results),
    limitsTable(results),
    scalingTable(results),
    results.quality ? qualityReport(results.quality) : '',
  ];
  if (results.skipped.length > 0) {
    sections.push(['## Not measured', '', ...results.skipped.map(({ slice, tool, reason }) => `- ${tool} on ${slice}: ${reason}`)].join('\n'));
  }
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

const slicesOf = (results: BenchResults, names: readonly string[]) => names.filter((slice) => results.slices[slice]);
const ms = (m: Measurement | undefined) => (m ? `${fmt(m.wallMs.median)} [${fmt(m.wallMs.min)}–${fmt(m.wallMs.max)}]` : '—');
const cpu = (m: Measurement | undefined) => (m?.cpuMs ? fmt(m.cpuMs.median) : '—');
const rss = (m: Measurement | undefined) => (m?.rssMiB ? fmt(m.rssMiB.median) : '—');
const ratio = (a: Measurement | undefined, b: Measurement | undefined) => (a && b ? `${(a.wallMs.median / b.wallMs.median).toFixed(2)}×` : '—');

function fmt(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function table(title: string, note: string, header: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  const align = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [
    `## ${title}`,
    '',
    ...(note ? [note, ''] : []),
    `| ${header.join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function corporaTable(results: BenchResults): string {
  return table(
    'Corpora',
    'Files a map sees (default excludes applied), from ../shared/corpora/make-corpora.sh.',
    ['slice', 'files', 'MB', 'lines', 'languages'],
    Object.entries(results.slices).map(([slice, s]) => [
      slice,
      String(s.files),
      (s.bytes / 1e6).toFixed(1),
      String(s.lines),
      Object.entries(s.languages)
        .sort(([, a], [, b]) => b - a)
        .map(([language, count]) => `${language} ${count}`)
        .join(', '),
    ]),
  );
}

function indexTable(results: BenchResults): string {
  return table(
    'Index (ms)',
    'Cold: store deleted. Warm: nothing changed. Incremental: one file touched. Map after an edit: one file’s bytes changed, then a map.',
    ['slice', 'cold', 'cold CPU', 'cold peak RSS MiB', 'warm', 'incremental', 'cold map (index + map)', 'map after an edit'],
    slicesOf(results, SLICES_500).map((slice) => {
      const cold = find(results, slice, 'cold index');
      return [
        slice,
        ms(cold),
        cpu(cold),
        rss(cold),
        ms(find(results, slice, 'warm index')),
        ms(find(results, slice, 'incremental index')),
        ms(find(results, slice, 'cold map')),
        ms(find(results, slice, 'map after an edit')),
      ];
    }),
  );
}

function mapTable(results: BenchResults): string {
  const variants = ['warm map 1024', 'warm map 8192', 'warm map 1024 + chat file', 'warm map 8192 + chat file'];
  return table(
    'Warm map (ms, and × `node -e 0` run in turns with it)',
    'In-process: repeated maps through the library with the repository open (openRepoMap).',
    ['slice', 'node -e 0', ...variants.map((variant) => variant.replace('warm map ', '')), 'peak RSS MiB', 'in-process'],
    slicesOf(results, SLICES_500).map((slice) => {
      const node = find(results, slice, 'node -e 0');
      return [
        slice,
        ms(node),
        ...variants.map((variant) => {
          const map = find(results, slice, variant);
          return map ? `${fmt(map.wallMs.median)} (${ratio(map, node)})` : '—';
        }),
        rss(find(results, slice, 'warm map 1024')),
        ms(find(results, slice, 'in-process map')),
      ];
    }),
  );
}

function artifactTable(results: BenchResults): string {
  const slices = [...new Set([...slicesOf(results, SLICES_500), ...slicesOf(results, SCALING_SLICES)])].filter((slice) => find(results, slice, 'export'));
  if (slices.length === 0) return '';
  return table(
    'After a change, and a nightly artifact (ms, and × the warm map at 1024 tokens)',
    'Touch: one file’s stamp changed, not its bytes (a checkout, a copy). Edit: its bytes changed. Export: from the warm store. ' +
      'Import: into a copy of the tree, every file with a new stamp (each read and its content id compared); then the first map there.',
    ['slice', 'warm map', 'map after a touch', 'map after an edit', 'export', 'import', 'first map after import', 'its peak RSS MiB'],
    slices.map((slice) => {
      const warm = find(results, slice, 'warm map 1024');
      const against = (scenario: string) => {
        const m = find(results, slice, scenario);
        return m ? `${fmt(m.wallMs.median)} (${ratio(m, warm)})` : '—';
      };
      return [
        slice,
        ms(warm),
        against('map after a touch'),
        against('map after an edit'),
        ms(find(results, slice, 'export')),
        ms(find(results, slice, 'import')),
        against('first map after import'),
        rss(find(results, slice, 'import')),
      ];
    }),
  );
}

function realTable(results: BenchResults): string {
  const repos = Object.entries(results.real ?? {});
  if (repos.length === 0) return '';
  const stages = ['discover', 'open store', 'compare stamps', 'read tables', 'rank', 'pack'];
  return table(
    'Real repositories: the warm map (ms, and × `node -e 0` run in turns with it), and its stages (medians of `--verbose`)',
    'Fetched at the commits bench/realRepos.ts pins. The goal: within 2.5× `node -e 0` up to 3,000 files.',
    ['repository', 'files (source)', 'node -e 0', 'warm map 1024', ...stages],
    repos.map(([name, stats]) => {
      const node = find(results, name, 'node -e 0');
      const map = find(results, name, 'warm map 1024');
      const source = Object.entries(stats.languages).reduce((sum, [language, count]) => sum + (language === 'other' ? 0 : count), 0);
      return [
        `${name} (${stats.github.split('/')[0]} ${stats.commit.slice(0, 7)})`,
        `${stats.files} (${source})`,
        ms(node),
        map ? `${fmt(map.wallMs.median)} (${ratio(map, node)})` : '—',
        ...stages.map((stage) => ms(find(results, name, `stage ${stage}`))),
      ];
    }),
  );
}

function peerTable(results: BenchResults): string {
  return table(
    'Peers (ms; ratio = repomap ÷ peer, below 1 is faster)',
    'ctags -R extracts tags only; repomix --compress and llm-code-highlighter start from nothing each time, so they compare with a cold map, and with the warm map an agent pays on every request.',
    [
      'slice',
      'ctags -R',
      'RSS MiB',
      'cold index ÷ ctags',
      'repomix --compress',
      'RSS MiB',
      'cold map ÷ repomix',
      'warm map ÷ repomix',
      'llm-code-highlighter',
      'RSS MiB',
      'cold map ÷ it',
    ],
    slicesOf(results, [...SLICES_500, ...SCALING_SLICES.filter((slice) => !SLICES_500.includes(slice))]).map((slice) => {
      const ctags = find(results, slice, 'ctags -R');
      const repomix = find(results, slice, 'repomix --compress');
      const highlighter = find(results, slice, 'llm-code-highlighter 1024');
      const coldMap = find(results, slice, 'cold map');
      return [
        slice,
        ms(ctags),
        rss(ctags),
        ratio(find(results, slice, 'cold index'), ctags),
        ms(repomix),
        rss(repomix),
        ratio(coldMap, repomix),
        ratio(find(results, slice, 'warm map 1024'), repomix),
        ms(highlighter),
        rss(highlighter),
        ratio(coldMap, highlighter),
      ];
    }),
  );
}

function limitsTable(results: BenchResults): string {
  return table(
    'Limits: one thread in a plain loop',
    `Parse + query: every file read, parsed and run through the tags query; extract: the whole record a worker builds. ` +
      `Pool efficiency: (loop time ÷ ${results.meta.jobs} threads) ÷ cold index time. ` +
      `Cold ÷ budget: cold index time ÷ (1.25 × (extract loop ÷ ${results.meta.jobs} threads + 0.4 s of pool start-up)); at most 1 meets it.`,
    ['slice', 'parse + query MB/s', 'by language (MB/s)', 'extract MB/s', 'pool efficiency vs parse + query', 'vs extract', 'cold ÷ budget'],
    Object.entries(results.limits).map(([slice, { parseQuery, extract }]) => {
      const cold = find(results, slice, 'cold index');
      const efficiency = (loopSeconds: number) => (cold ? ((loopSeconds * 1000) / results.meta.jobs / cold.wallMs.median).toFixed(2) : '—');
      const budgetMs = 1.25 * ((extract.seconds * 1000) / results.meta.jobs + 400);
      return [
        slice,
        (parseQuery.bytes / 1e6 / parseQuery.seconds).toFixed(1),
        Object.entries(parseQuery.byLanguage)
          .map(([language, { bytes, seconds }]) => `${language} ${(bytes / 1e6 / seconds).toFixed(1)}`)
          .join(', '),
        (extract.bytes / 1e6 / extract.seconds).toFixed(1),
        efficiency(parseQuery.seconds),
        efficiency(extract.seconds),
        cold ? (cold.wallMs.median / budgetMs).toFixed(2) : '—',
      ];
    }),
  );
}

/** Least squares of time on size: the slope, and how well a line explains the points (R²). */
export function linearFit(points: readonly { x: number; y: number }[]): { slope: number; intercept: number; r2: number } | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxx = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  const sxy = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0);
  const syy = points.reduce((sum, p) => sum + (p.y - my) ** 2, 0);
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy) };
}

export const SCALING_SERIES = [
  { scenario: 'cold index', tool: 'repomap' },
  { scenario: 'warm map 1024', tool: 'repomap' },
  { scenario: 'map after an edit', tool: 'repomap' },
  { scenario: 'map after a touch', tool: 'repomap' },
  { scenario: 'export', tool: 'repomap' },
  { scenario: 'import', tool: 'repomap' },
  { scenario: 'first map after import', tool: 'repomap' },
  { scenario: 'ctags -R', tool: 'ctags' },
  { scenario: 'repomix --compress', tool: 'repomix' },
  { scenario: 'llm-code-highlighter 1024', tool: 'llm-code-highlighter' },
] as const;

function scalingTable(results: BenchResults): string {
  const slices = slicesOf(results, SCALING_SLICES);
  if (slices.length < 2) return '';
  const rows = SCALING_SERIES.flatMap(({ scenario }) => {
    const points = slices.flatMap((slice) => {
      const m = find(results, slice, scenario);
      return m ? [{ slice, files: results.slices[slice]!.files, bytes: results.slices[slice]!.bytes, ms: m.wallMs.median }] : [];
    });
    const byFiles = linearFit(points.map((p) => ({ x: p.files, y: p.ms })));
    const byBytes = linearFit(points.map((p) => ({ x: p.bytes / 1e6, y: p.ms })));
    if (!byFiles || !byBytes) return [];
    const perFile = points.map((p) => `${p.files}: ${fmt(p.ms)}`).join(', ');
    return [[scenario, perFile, `${(byFiles.slope * 1000).toFixed(1)} µs`, `${fmt(byBytes.slope)} ms`, `${fmt(byFiles.intercept)} ms`, byFiles.r2.toFixed(3)]];
  });
  return table(
    'Scaling',
    `Slices ${slices.join(', ')}; time (ms) against files, fitted as a line: the slope per file and per MB, the intercept, and R² (1 is a straight line).`,
    ['scenario', 'files: ms', 'per file', 'per MB', 'intercept', 'R²'],
    rows,
  );
}

/** `--compare A B`: per scenario, B's median wall time over A's; over 1.10 is a regression. */
export function compareReport(a: BenchResults, b: BenchResults): { text: string; regressions: number } {
  const rows: string[][] = [];
  let regressions = 0;
  for (const before of a.scenarios) {
    const after = b.scenarios.find((candidate) => candidate.slice === before.slice && candidate.scenario === before.scenario);
    if (!after) continue;
    const change = after.measurement.wallMs.median / before.measurement.wallMs.median;
    const regressed = change > 1.1;
    if (regressed) regressions++;
    rows.push([
      before.slice,
      before.scenario,
      fmt(before.measurement.wallMs.median),
      fmt(after.measurement.wallMs.median),
      `${change.toFixed(2)}×`,
      regressed ? 'REGRESSION' : '',
    ]);
  }
  const text = table(
    `${a.meta.commit} (${a.meta.date}) → ${b.meta.commit} (${b.meta.date})`,
    'Median wall time in ms; B ÷ A over 1.10 is flagged.',
    ['slice', 'scenario', 'A', 'B', 'B ÷ A', ''],
    rows,
  );
  return { text: `${text}\n\n${regressions} regression(s) over 10%.\n`, regressions };
}
