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
  [{ maxTokens: -1 }, "maxTokens must be a whole number, not '-1'"],
  [{ maxTokens: 10.5 }, "maxTokens must be a whole number, not '10.5'"],
  [{ maxTokens: Number.NaN }, "maxTokens must be a whole number, not 'NaN'"],
  [{ maxLineLength: 0 }, "maxLineLength must be a whole number of at least 1, not '0'"],
  [{ maxContextWindow: 0 }, "maxContextWindow must be a whole number of at least 1, not '0'"],
  [{ mapMulNoFiles: 1.5 }, "mapMulNoFiles must be a whole number of at least 1, not '1.5'"],
  [{ pageRank: { damping: 2 } }, "pageRank.damping must be a number greater than 0 and less than 1, not '2'"],
  [{ pageRank: { damping: 0 } }, "pageRank.damping must be a number greater than 0 and less than 1, not '0'"],
  [{ pageRank: { tolerance: 0 } }, "pageRank.tolerance must be a number greater than 0, not '0'"],
  [{ pageRank: { maxIterations: 0 } }, "pageRank.maxIterations must be a whole number of at least 1, not '0'"],
  [{ missingFiles: 'ignore' as 'warn' }, "missingFiles must be one of error, warn, not 'ignore'"],
  [{ style: 'dense' as 'aider' }, "style must be one of signatures, aider, not 'dense'"],
  [{ chatFiles: 'a.py' as unknown as string[] }, "chatFiles must be a list of strings, not 'a.py'"],
  [{ excludeUnranked: 'yes' as unknown as boolean }, "excludeUnranked must be true or false, not 'yes'"],
  [{ gitSignals: 1 as unknown as boolean }, "gitSignals must be true or false, not '1'"],
  [
    { historySource: { gitDir: '/g' } as unknown as MapOptions['historySource'] },
    'historySource must be { gitDir, commit } (two strings), not \'{"gitDir":"/g"}\'',
  ],
];

const INVALID_INDEX_OPTIONS: [MapOptions, string][] = [
  [{ jobs: 0 }, "jobs must be a whole number of at least 1, not '0'"],
  [{ jobs: 1.5 }, "jobs must be a whole number of at least 1, not '1.5'"],
  [{ maxFileBytes: -1 }, "maxFileBytes must be a whole number, not '-1'"],
  [{ fileTimeoutMs: 0 }, "fileTimeoutMs must be a number greater than 0, not '0'"],
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
