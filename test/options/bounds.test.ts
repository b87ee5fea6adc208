import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../dist/src/cli/commandTable.js';
import type { OptionSpec } from '../../dist/src/options/optionSpec.js';
import { readFlags } from '../../dist/src/options/readFlags.js';
import { makeRepo, runCli } from '../support/cli.js';

/** Every user input is bounded: each number has a most it may take, each string and list a length (optionSpec's defaults). */
const SPECS: [string, OptionSpec][] = Object.values(COMMANDS).flatMap(({ options }) => Object.entries(options as Record<string, OptionSpec>));

describe('the option table bounds every number', () => {
  test.each(SPECS.filter(([, spec]) => spec.kind === 'integer' || spec.kind === 'number'))('%s has a most it may take', (_, spec) => {
    expect(spec.max ?? spec.below).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  test('the bounds themselves are accepted, and each default lies within them', () => {
    const atMost: Record<string, unknown> = {};
    for (const [, spec] of SPECS) {
      if (spec.max !== undefined) atMost[spec.flag] = String(spec.max);
      if (spec.default !== undefined && spec.kind !== 'choice' && spec.kind !== 'boolean') {
        expect(readFlags({ [spec.flag]: spec }, { [spec.flag]: String(spec.default) })).toEqual({ [spec.flag]: spec.default });
      }
    }
    const args = readFlags(COMMANDS.map.options, atMost);
    expect(args).toMatchObject({ jobs: 64, fileTimeoutMs: 600_000, maxFileBytes: 64 * 1024 * 1024, indexWaitMs: 3_600_000, maxTokens: 10_000_000 });
    expect(args).toMatchObject({ maxContextWindow: 10_000_000, mapMulNoFiles: 1000, maxLineLength: 10_000, pageRankMaxIterations: 1000 });
  });

  test('a map made at the bounds (two workers) is the map made at the defaults', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return b()\n', 'b.py': 'def b():\n    pass\n' });
    const bounds = ['--file-timeout-ms', '600000', '--index-wait-ms', '3600000', '--max-file-bytes', String(64 * 1024 * 1024), '--jobs', '2'];
    const atBounds = await runCli(['map', root, ...bounds, '-t', '10000000', '--max-line-length', '10000', '--pagerank-max-iter', '1000']);
    expect(atBounds).toMatchObject({ code: 0, stderr: '' });
    const byDefault = await runCli(['map', root, '--cache-dir', `${root}/../${root.split('/').at(-1)}-defaults`, '-t', '10000000']);
    expect(byDefault).toMatchObject({ code: 0, stderr: '' });
    expect(atBounds.stdout).toBe(byDefault.stdout);
  });
});
