import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { LIMITS } from '../../dist/src/defaults.js';
import { discoverFiles } from '../../dist/src/discover/discoverFiles.js';
import { removeOwnJournals } from '../../dist/src/indexing/crashRecovery.js';
import { parsableHere, parseHere } from '../../dist/src/indexing/parseHere.js';
import { ParsePool } from '../../dist/src/indexing/parsePool.js';
import type { ShardFile } from '../../dist/src/indexing/workerProtocol.js';
import { faultEnv, indexJson, makeRepo, runCli, stagesOf } from '../support/cli.js';

const LANGUAGES_DIR = fileURLToPath(new URL('../../fixtures/languages/', import.meta.url));

function fileOf(size: number, i = 0): ShardFile {
  return { path: `f${i}.py`, language: 'python', size, mtimeMs: 1, ctimeMs: 1, ino: i };
}

describe('the files parsed in the coordinator’s own thread', () => {
  test(`are at most ${LIMITS.parseHereMaxFiles} files of ${LIMITS.parseHereMaxBytes} bytes in all`, () => {
    expect(parsableHere([])).toBe(true);
    expect(parsableHere(Array.from({ length: LIMITS.parseHereMaxFiles }, (_, i) => fileOf(1, i)))).toBe(true);
    expect(parsableHere(Array.from({ length: LIMITS.parseHereMaxFiles + 1 }, (_, i) => fileOf(1, i)))).toBe(false);
    expect(parsableHere([fileOf(LIMITS.parseHereMaxBytes - 1, 0), fileOf(1, 1)])).toBe(true);
    expect(parsableHere([fileOf(LIMITS.parseHereMaxBytes, 0), fileOf(1, 1)])).toBe(false);
  });

  test.each(['go', 'java', 'javascript', 'python', 'rust', 'tsx', 'typescript', 'polyglot'])(
    'get the stored values a parse worker gives them: %s',
    async (fixture) => {
      const root = join(LANGUAGES_DIR, fixture);
      const files = discoverFiles({ root }).files.flatMap((file) => (file.language === null ? [] : [{ ...file, language: file.language }]));
      expect(files.length).toBeGreaterThan(0);
      const settings = { root, maxFileBytes: 1 << 20, fileTimeoutMs: 60_000, journalDir: null };
      const here = await parseHere(files, settings);
      const pool = new ParsePool(1);
      try {
        const worker = await pool.parse(0, files, settings);
        expect(here.parsed).toBe(files.length);
        expect(here.parsed).toBe(worker.parsed);
        expect([...here.values]).toEqual([...worker.values]);
      } finally {
        await pool.close();
      }
    },
  );
});

describe('the crash journal of a parse in this thread', () => {
  test('is made by each parse, also after the run before removed it (a long-lived host parses for many runs)', async () => {
    const root = makeRepo({ 'a.py': 'def a():\n    return 1\n' });
    const journalDir = mkdtempSync(join(tmpdir(), 'repomap-journal-'));
    const journal = join(journalDir, `parsing-${process.pid}-${threadId}`);
    const files = discoverFiles({ root }).files.map((file) => ({ ...file, language: 'python' as const }));
    const settings = { root, maxFileBytes: 1 << 20, fileTimeoutMs: 60_000, journalDir };
    for (let run = 0; run < 2; run++) {
      expect((await parseHere(files, settings)).parsed).toBe(1);
      // The reader takes the first line: '' once the parse is over.
      expect(readFileSync(journal, 'utf8').split('\n', 1)[0]).toBe('""');
      removeOwnJournals(journalDir);
      expect(existsSync(journal)).toBe(false);
    }
  });
});

describe('an edit of a few files is parsed by the CLI without a worker', () => {
  const files = {
    'a.py': 'from b import helper\n\ndef main():\n    return helper()\n',
    'b.py': 'def helper():\n    return 1\n',
  };

  test('no parse worker boots, and the map is a fresh index’s', async () => {
    const root = makeRepo(files);
    await indexJson(root);
    appendFileSync(join(root, 'b.py'), '\ndef added():\n    return helper()\n');
    const booted = join(root, '..', `${basename(root)}-booted`);
    const edited = await runCli(['map', root, '--verbose', '--no-git-signals'], { env: faultEnv('slow-boot', booted) });
    expect(edited.code).toBe(0);
    expect(stagesOf(edited.stderr)).toContain('parse');
    expect(existsSync(booted)).toBe(false);
    const fresh = await runCli(['map', root, '--no-git-signals', '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-fresh-'))]);
    expect(edited.stdout).toBe(fresh.stdout);
    expect(edited.stdout).toContain('def added():');
  });

  test('past the bound on files, workers parse them', async () => {
    const many = Object.fromEntries(Array.from({ length: LIMITS.parseHereMaxFiles + 1 }, (_, i) => [`m${i}.py`, `def f${i}():\n    return ${i}\n`]));
    const root = makeRepo(many);
    await indexJson(root);
    for (const name of Object.keys(many)) appendFileSync(join(root, name), 'X = 1\n');
    const booted = join(root, '..', `${basename(root)}-booted`);
    const summary = await indexJson(root, ['--jobs', '1'], faultEnv('slow-boot', booted));
    expect(summary).toMatchObject({ parsed: LIMITS.parseHereMaxFiles + 1 });
    expect(readFileSync(booted, 'utf8')).toBe('booted\n');
  });
});
