import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildMap, indexRepository, type MapOptions, NoMapError, OptionError, openRepoMap, RepomapError } from '../../dist/src/index.js';
import { makeRepo } from '../support/cli.js';

/**
 * The library judges its options as the CLI does: a value an option cannot take is an
 * OptionError (exit code 1) naming the option as the library names it and quoting the value,
 * thrown before any work (no store is made).
 */
const INVALID_MAP_OPTIONS: [MapOptions, string][] = [
  [{ maxTokens: -1 }, "maxTokens must be a whole number from 0 to 10000000, not '-1'"],
  [{ maxTokens: 10.5 }, "maxTokens must be a whole number from 0 to 10000000, not '10.5'"],
  [{ maxTokens: Number.NaN }, "maxTokens must be a whole number from 0 to 10000000, not 'NaN'"],
  [{ maxTokens: 2 ** 53 }, "maxTokens must be a whole number from 0 to 10000000, not '9007199254740992'"],
  [{ maxLineLength: 0 }, "maxLineLength must be a whole number from 1 to 10000, not '0'"],
  [{ maxContextWindow: 0 }, "maxContextWindow must be a whole number from 1 to 10000000, not '0'"],
  [{ mapMulNoFiles: 1.5 }, "mapMulNoFiles must be a whole number from 1 to 1000, not '1.5'"],
  [{ pageRank: { damping: 2 } }, "pageRank.damping must be a number greater than 0 and less than 1, not '2'"],
  [{ pageRank: { damping: 0 } }, "pageRank.damping must be a number greater than 0 and less than 1, not '0'"],
  [{ pageRank: { tolerance: 0 } }, "pageRank.tolerance must be a number greater than 0 and less than 1, not '0'"],
  [{ pageRank: { maxIterations: 0 } }, "pageRank.maxIterations must be a whole number from 1 to 1000, not '0'"],
  [{ pageRank: { maxIterations: 1e9 } }, "pageRank.maxIterations must be a whole number from 1 to 1000, not '1000000000'"],
  [{ query: 'q'.repeat(1024 * 1024 + 1) }, 'query must be a string of at most 1048576 characters, not one of 1048577'],
  [{ chatFiles: Array.from({ length: 1001 }, (_, i) => `f${i}.py`) }, 'chatFiles takes at most 1000 values, not 1001'],
  [{ mentionedFiles: ['m'.repeat(4097)] }, 'mentionedFiles takes values of at most 4096 characters, not one of 4097'],
  [{ mentionedIdents: ['i'.repeat(5000)] }, 'mentionedIdents takes values of at most 4096 characters, not one of 5000'],
  [{ anchors: Array.from({ length: 2000 }, () => 'a.py') }, 'anchors takes at most 1000 values, not 2000'],
  [{ cwd: 'd'.repeat(4097) }, 'cwd must be a string of at most 4096 characters, not one of 4097'],
  [{ historySource: { gitDir: 'g'.repeat(4097), commit: 'c' } }, 'historySource.gitDir must be a string of at most 4096 characters, not one of 4097'],
  [{ tests: 'x'.repeat(200) as 'include' }, `tests must be one of include, demote, exclude, not '${'x'.repeat(80)}…'`],
  [{ missingFiles: 'ignore' as 'warn' }, "missingFiles must be one of error, warn, not 'ignore'"],
  [{ style: 'dense' as 'aider' }, "style must be one of signatures, aider, not 'dense'"],
  [{ chatFiles: 'a.py' as unknown as string[] }, "chatFiles must be a list of strings, not 'a.py'"],
  [{ excludeUnranked: 'yes' as unknown as boolean }, "excludeUnranked must be true or false, not 'yes'"],
  [{ gitSignals: 1 as unknown as boolean }, "gitSignals must be true or false, not '1'"],
  [{ explain: 'yes' as unknown as boolean }, "explain must be true or false, not 'yes'"],
  [
    { historySource: { gitDir: '/g' } as unknown as MapOptions['historySource'] },
    'historySource must be { gitDir, commit } (two strings), not \'{"gitDir":"/g"}\'',
  ],
];

const INVALID_INDEX_OPTIONS: [MapOptions, string][] = [
  [{ jobs: 0 }, "jobs must be a whole number from 1 to 64, not '0'"],
  [{ jobs: 1.5 }, "jobs must be a whole number from 1 to 64, not '1.5'"],
  [{ jobs: 100_000 }, "jobs must be a whole number from 1 to 64, not '100000'"],
  [{ maxFileBytes: -1 }, "maxFileBytes must be a whole number from 0 to 67108864, not '-1'"],
  [{ maxFileBytes: 2 ** 40 }, "maxFileBytes must be a whole number from 0 to 67108864, not '1099511627776'"],
  [{ fileTimeoutMs: 0 }, "fileTimeoutMs must be a number greater than 0 and at most 600000, not '0'"],
  [{ fileTimeoutMs: 1e12 }, "fileTimeoutMs must be a number greater than 0 and at most 600000, not '1000000000000'"],
  [{ indexWaitMs: 2 ** 31 }, "indexWaitMs must be a whole number from 0 to 3600000, not '2147483648'"],
  [{ root: 'r'.repeat(4097) }, 'root must be a string of at most 4096 characters, not one of 4097'],
  [{ cacheDir: 'c'.repeat(4097) }, 'cacheDir must be a string of at most 4096 characters, not one of 4097'],
  [{ ignore: Array.from({ length: 1001 }, (_, i) => `g${i}`) }, 'ignore takes at most 1000 values, not 1001'],
  [{ ignore: ['*.md', 3] as unknown as string[] }, 'ignore must be a list of strings, not \'["*.md",3]\''],
];

async function expectOptionError(run: Promise<unknown>, message: string): Promise<void> {
  const error: unknown = await run.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OptionError);
  expect(error).toBeInstanceOf(RepomapError);
  expect((error as OptionError).exitCode).toBe(1);
  expect((error as OptionError).message).toBe(message);
  expect((error as OptionError).option).toBe(message.split(' ')[0]);
}

describe('the library rejects an option it cannot use', () => {
  const mapper = openRepoMap({ root: makeRepo({ 'a.py': 'def a():\n    pass\n' }) });
  afterAll(async () => (await mapper).close());

  test.each(INVALID_MAP_OPTIONS)('buildMap(%o), before making a store', async (options, message) => {
    const fresh = makeRepo({ 'a.py': 'x = 1\n' });
    await expectOptionError(buildMap({ root: fresh, ...options }), message);
    expect(existsSync(join(fresh, '.repomap'))).toBe(false);
  });

  test.each(INVALID_MAP_OPTIONS)('openRepoMap(...).map(%o)', async (options, message) => {
    await expectOptionError((await mapper).map(options), message);
  });

  test.each(INVALID_INDEX_OPTIONS)('indexRepository(%o), openRepoMap(%o) and buildMap(%o), before making a store', async (options, message) => {
    const fresh = makeRepo({ 'a.py': 'x = 1\n' });
    await expectOptionError(indexRepository({ root: fresh, ...options }), message);
    await expectOptionError(openRepoMap({ root: fresh, ...options }), message);
    await expectOptionError(buildMap({ root: fresh, ...options }), message);
    expect(existsSync(join(fresh, '.repomap'))).toBe(false);
  });

  test('a budget of 0 is no map (exit code 2), not an option error', async () => {
    const error: unknown = await buildMap({ root: makeRepo({ 'a.py': 'x = 1\n' }), maxTokens: 0 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NoMapError);
    expect((error as NoMapError).exitCode).toBe(2);
    expect((error as NoMapError).message).toBe('a budget of 0 tokens holds no map');
  });

  test('the limits themselves are accepted', async () => {
    const fresh = makeRepo({ 'a.py': 'def a():\n    pass\n' });
    const map = await buildMap({ root: fresh, maxTokens: 1, maxLineLength: 1, jobs: 1, maxFileBytes: 0, pageRank: { damping: 0.5, maxIterations: 1 } }).catch(
      (thrown: unknown) => thrown,
    );
    // One token holds no entry: the options passed, and the map found nothing that fits.
    expect(map).toBeInstanceOf(NoMapError);
    expect((map as NoMapError).message).toBe('no map fits in 1 tokens');
    expect(existsSync(join(fresh, '.repomap'))).toBe(true);
  });
});
