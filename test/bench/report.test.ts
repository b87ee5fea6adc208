import { describe, expect, test } from 'vitest';
import type { Measurement } from '../../dist/bench/measure.js';
import { scalingPlot } from '../../dist/bench/plot.js';
import { compareReport, linearFit, markdownReport } from '../../dist/bench/report.js';
import type { BenchResults } from '../../dist/bench/results.js';

/** The harness's arithmetic and reports, on made-up results (the benchmarks themselves never run in tests). */
function measured(wallMs: number, rssMiB = 100): Measurement {
  return {
    runs: 3,
    wallMs: { median: wallMs, min: wallMs * 0.9, max: wallMs * 1.1 },
    cpuMs: { median: wallMs * 1.5, min: wallMs, max: wallMs * 2 },
    rssMiB: { median: rssMiB, min: rssMiB, max: rssMiB },
  };
}

function results(scale: number, commit: string): BenchResults {
  const stats = (files: number) => ({ files, bytes: files * 10_000, lines: files * 200, languages: { python: files } });
  const scenario = (slice: string, name: string, wallMs: number, tool = 'repomap') => ({ slice, scenario: name, tool, measurement: measured(wallMs * scale) });
  return {
    meta: { date: '2026-11-21', commit, mode: 'full', node: 'v20', cpus: 2, jobs: 2, warmup: 1, runs: 3, gnuTime: true, peers: { ctags: '5.9.0' } },
    slices: { 'mixed-500': stats(500), 'scale-2k': stats(2000), 'scale-10k': stats(10_000) },
    scenarios: [
      scenario('mixed-500', 'cold index', 1700),
      scenario('mixed-500', 'node -e 0', 50, 'node'),
      scenario('mixed-500', 'warm map 1024', 100),
      scenario('mixed-500', 'ctags -R', 170, 'ctags'),
      scenario('scale-2k', 'cold index', 6200),
      scenario('scale-10k', 'cold index', 30_200),
      scenario('scale-2k', 'warm map 1024', 160),
      scenario('scale-10k', 'warm map 1024', 480),
    ],
    limits: {
      'mixed-500': {
        parseQuery: { seconds: 1, bytes: 5e6, byLanguage: { python: { seconds: 1, bytes: 5e6 } } },
        extract: { seconds: 1.7, bytes: 5e6, byLanguage: {} },
      },
    },
    skipped: [{ slice: 'scale-10k', tool: 'llm-code-highlighter', reason: 'not run above 1000 files' }],
  };
}

describe('the benchmark report', () => {
  test('a straight line fits with R² 1; its slope and intercept come back', () => {
    const fit = linearFit([
      { x: 500, y: 1700 },
      { x: 2000, y: 6200 },
      { x: 10_000, y: 30_200 },
    ])!;
    expect(fit.slope).toBeCloseTo(3, 9);
    expect(fit.intercept).toBeCloseTo(200, 6);
    expect(fit.r2).toBeCloseTo(1, 12);
    expect(
      linearFit([
        { x: 500, y: 1000 },
        { x: 1000, y: 1000 },
        { x: 2000, y: 4000 },
      ])!.r2,
    ).toBeLessThan(0.9);
    expect(linearFit([{ x: 1, y: 1 }])).toBeNull();
  });

  test('the Markdown report carries the medians, the ratios and the scaling slope', () => {
    const report = markdownReport(results(1, 'abc1234'));
    expect(report).toContain('| mixed-500 | 1700 [1530–1870] | 2550 | 100 |');
    expect(report).toContain('| mixed-500 | 50.0 [45.0–55.0] | 100 (2.00×) |');
    expect(report).toContain('| mixed-500 | 170 [153–187] | 100 | 10.00× |');
    // (1 s ÷ 2 threads) ÷ 1.7 s cold.
    expect(report).toContain('| mixed-500 | 5.0 | python 5.0 | 2.9 | 0.29 | 0.50 | 1.09 |');
    expect(report).toContain('| cold index | 500: 1700, 2000: 6200, 10000: 30200 | 3000.0 µs | 300 ms | 200 ms | 1.000 |');
    expect(report).toContain('- llm-code-highlighter on scale-10k: not run above 1000 files');
  });

  test('--compare flags what got more than 10% slower', () => {
    const before = results(1, 'aaa');
    const after = results(1, 'bbb');
    after.scenarios[0]!.measurement = measured(1700 * 1.2);
    after.scenarios[2]!.measurement = measured(100 * 1.05);
    const { text, regressions } = compareReport(before, after);
    expect(regressions).toBe(1);
    expect(text).toContain('| mixed-500 | cold index | 1700 | 2040 | 1.20× | REGRESSION |');
    expect(text).toContain('| mixed-500 | warm map 1024 | 100 | 105 | 1.05× |  |');
  });

  test('the plot draws each series along the scaling slices', () => {
    const svg = scalingPlot(results(1, 'abc1234'));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    expect(svg).toContain('repomap index (cold)');
    expect(svg).toContain('ctags -R');
  });
});
