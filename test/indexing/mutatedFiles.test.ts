import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { type IndexJson, makeRepo, runCli } from '../support/cli.js';
import { MUTATION_KINDS, type MutationKind, mutatedFiles, sourceFiles } from '../support/sourceMutations.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SEED = 0x10_0003;
const COUNT = 200;
/** Low enough that the bracket bombs cost the suite seconds, high enough that no real file nears it. */
const FILE_TIMEOUT_MS = '200';

/** Outcomes every mutation may have: tags, or a reason a damaged file earns. `worker-error` is none: it means a bug of ours. */
const DAMAGE_REASONS = new Set(['parsed', 'timeout', 'empty', 'binary', 'invalid-utf8']);

describe('a campaign of mutated real source files', () => {
  const files = mutatedFiles(sourceFiles(REPO, ['fixtures', 'src']), COUNT, SEED);

  test(`${COUNT} files: each gets a record, index and map exit 0`, async () => {
    const root = makeRepo(Object.fromEntries(files.map((file) => [file.path, file.bytes])));
    const index = await runCli(['index', root, '--json', '--file-timeout-ms', FILE_TIMEOUT_MS]);
    expect({ code: index.code, signal: index.signal }).toEqual({ code: 0, signal: null });
    const summary = JSON.parse(index.stdout) as IndexJson;
    const skipped = Object.values(summary.skipped).reduce((sum, count) => sum + count, 0);
    expect({ files: summary.files, recorded: summary.parsed + skipped }).toEqual({ files: COUNT, recorded: COUNT });

    const reasons = new Map(summary.skippedFiles.map(({ path, reason }) => [path, reason]));
    const outcomes = new Map<MutationKind, Set<string>>(MUTATION_KINDS.map((kind) => [kind, new Set()]));
    for (const file of files) outcomes.get(file.kind)!.add(reasons.get(file.path) ?? 'parsed');
    expect(outcomes.get('nul-bytes')).toEqual(new Set(['binary']));
    expect(outcomes.get('invalid-utf8')).toEqual(new Set(['invalid-utf8']));
    for (const [kind, seen] of outcomes)
      expect({ kind, unexpected: [...seen].filter((reason) => !DAMAGE_REASONS.has(reason)) }).toEqual({ kind, unexpected: [] });
    // The bombs are what the campaign is for: some must be deep enough to time out.
    expect(outcomes.get('bracket-bomb')).toContain('timeout');

    const map = await runCli(['map', root, '--file-timeout-ms', FILE_TIMEOUT_MS]);
    expect({ code: map.code, signal: map.signal }).toEqual({ code: 0, signal: null });
  }, 60_000);
});
