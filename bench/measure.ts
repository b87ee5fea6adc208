import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One whole-process run: wall time, CPU time (user + system) and peak RSS, from the OS. */
export interface Sample {
  wallMs: number;
  cpuMs: number | null;
  rssMiB: number | null;
}

export interface Stat {
  median: number;
  min: number;
  max: number;
}

export interface Measurement {
  runs: number;
  wallMs: Stat;
  cpuMs: Stat | null;
  rssMiB: Stat | null;
}

/** GNU time (Debian package `time`) reports a child's CPU time and peak RSS; without it, wall time only. */
const GNU_TIME = '/usr/bin/time';
export const haveGnuTime = existsSync(GNU_TIME);

export class RunFailed extends Error {
  constructor(
    command: string,
    /** What went wrong, in one line. */
    readonly reason: string,
  ) {
    super(`${command}: ${reason}`);
  }
}

/** Runs a command to completion (stdout discarded) and measures it; a non-zero exit throws RunFailed with its stderr. */
export function timedRun(command: string, args: readonly string[], options: { cwd?: string } = {}): Sample {
  const reportDir = haveGnuTime ? mkdtempSync(join(tmpdir(), 'repomap-bench-time-')) : null;
  const report = reportDir ? join(reportDir, 'time') : null;
  const [file, argv] = report ? [GNU_TIME, ['-f', '%U %S %M', '-o', report, command, ...args]] : [command, [...args]];
  const started = performance.now();
  const result = spawnSync(file, argv, { cwd: options.cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallMs = performance.now() - started;
  try {
    if (result.status !== 0) {
      const why = result.error?.message ?? errorLine(result.stderr);
      throw new RunFailed([command, ...args].join(' '), `exited ${result.status ?? result.signal}: ${why}`);
    }
    if (!report) return { wallMs, cpuMs: null, rssMiB: null };
    const [user, system, peakKiB] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    return { wallMs, cpuMs: (user! + system!) * 1000, rssMiB: peakKiB! / 1024 };
  } finally {
    if (reportDir) rmSync(reportDir, { recursive: true, force: true });
  }
}

/** The line of a failed run's stderr that says what went wrong: the last error line, else the last line. */
function errorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line.length < 400 && !line.startsWith('at '));
  return [...lines].reverse().find((line) => /error|abort|fail/i.test(line)) ?? lines.pop() ?? '(no output)';
}

/** `warmup` runs thrown away, then `runs` kept; `before` runs ahead of each (not timed). */
export function measure(run: () => Sample, counts: { warmup: number; runs: number }, before?: () => void): Measurement {
  const samples: Sample[] = [];
  for (let i = 0; i < counts.warmup + counts.runs; i++) {
    before?.();
    const sample = run();
    if (i >= counts.warmup) samples.push(sample);
  }
  return summarize(samples);
}

export function summarize(samples: readonly Sample[]): Measurement {
  const stat = (values: number[]): Stat => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
  const cpu = samples.map((sample) => sample.cpuMs);
  const rss = samples.map((sample) => sample.rssMiB);
  return {
    runs: samples.length,
    wallMs: stat(samples.map((sample) => sample.wallMs)),
    cpuMs: cpu.every((value) => value !== null) ? stat(cpu as number[]) : null,
    rssMiB: rss.every((value) => value !== null) ? stat(rss as number[]) : null,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
