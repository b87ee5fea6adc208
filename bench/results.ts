import type { SliceStats } from './corpora.js';
import type { LoopResult } from './limits.js';
import type { Measurement } from './measure.js';
import type { QualityResults } from './quality/qualityResults.js';
import type { ScenarioResult } from './scenarios.js';

/** What one `npm run bench` writes to bench/results/<date>-<sha>.json. */
export interface BenchResults {
  meta: {
    date: string;
    commit: string;
    mode: 'full' | 'quick' | 'quality';
    node: string;
    cpus: number;
    /** Parse worker threads: the pool size. */
    jobs: number;
    warmup: number;
    runs: number;
    /** Whether CPU time and peak RSS were measured (GNU time). */
    gnuTime: boolean;
    peers: Record<string, string>;
  };
  slices: Record<string, SliceStats>;
  scenarios: ScenarioResult[];
  limits: Record<string, { parseQuery: LoopResult; extract: LoopResult }>;
  /** The real repositories measured (bench/realRepos.ts), by name. */
  real?: Record<string, SliceStats & { github: string; commit: string }>;
  /** Peers and scenarios that did not run on a slice, and why. */
  skipped: { slice: string; tool: string; reason: string }[];
  /** The quality harness's results, when it ran (`--quality`, `--quality-only`). */
  quality?: QualityResults;
}

export function find(results: BenchResults, slice: string, scenario: string): Measurement | undefined {
  return results.scenarios.find((candidate) => candidate.slice === slice && candidate.scenario === scenario)?.measurement;
}
