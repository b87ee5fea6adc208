import { chmodSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildRecord } from '../../dist/workers/buildRecord.js';
import { cliTags, faultEnv, indexedRepo, indexJson, makeRepo, runCli, SMALL_FILE_TIMEOUT_MS } from '../support/cli.js';

const GOOD = 'def ok():\n    return helper()\n';

/** About 2 MB of Python: 2 s to parse on a 2-core machine, 40 times a 50 ms limit. */
function bigPython(): string {
  let text = '';
  for (let i = 0; text.length < 2_000_000; i++) text += `def f${i}(a, b):\n    return g(a + b * ${i})\n`;
  return text;
}

describe('inputs that cannot be parsed get a record with a reason, and the run goes on', () => {
  test('binary, too large, invalid UTF-8 and empty files', async () => {
    const root = makeRepo({
      'good.py': GOOD,
      'binary.py': Uint8Array.from([0x64, 0x65, 0x66, 0x00, 0x01, 0x02]),
      'large.py': `X = "${'x'.repeat(5000)}"\n`,
      'latin1.py': Uint8Array.from([...Buffer.from('NAME = "caf'), 0xe9, ...Buffer.from('"\n')]),
      'empty.py': '',
    });
    const summary = await indexJson(root, ['--max-file-bytes', '4096']);
    expect(summary).toMatchObject({
      files: 5,
      parsed: 1,
      skipped: { binary: 1, 'too-large': 1, 'invalid-utf8': 1, empty: 1 },
    });
    expect(await cliTags(root, ['--max-file-bytes', '4096'])).toEqual(['good.py:1 def function ok', 'good.py:2 ref call helper']);
  });

  test('a file skipped as too large is parsed once a higher limit lets it in', async () => {
    const root = makeRepo({ 'large.py': `X = "${'x'.repeat(5000)}"\n` });
    expect(await indexJson(root, ['--max-file-bytes', '4096'])).toMatchObject({ parsed: 0, skipped: { 'too-large': 1 } });
    expect(await indexJson(root, ['--max-file-bytes', '4096'])).toMatchObject({ parsed: 0, reused: 1 });
    expect(await indexJson(root)).toMatchObject({ parsed: 1, reused: 0, skipped: {}, defs: 1 });
  });

  test('a file that vanishes or cannot be read is unreadable', () => {
    const root = makeRepo({ 'locked.py': GOOD });
    const file = { path: 'gone.py', language: 'python' as const, mtimeMs: 0, size: 10, ctimeMs: 0, ino: 0 };
    const limits = { root, maxFileBytes: 1 << 20, fileTimeoutMs: 1000 };
    expect(buildRecord(limits, file).skipped).toBe('unreadable');
    // Root reads anything, so the permission case only means something for other users.
    if (process.getuid?.() !== 0) {
      chmodSync(join(root, 'locked.py'), 0o000);
      expect(buildRecord(limits, { ...file, path: 'locked.py' }).skipped).toBe('unreadable');
    }
  });

  test('a file whose parse outlasts the limit times out', async () => {
    const root = await indexedRepo({ 'good.py': GOOD });
    writeFileSync(join(root, 'huge.py'), bigPython());
    const summary = await indexJson(root, ['--file-timeout-ms', '50', '--max-file-bytes', String(8 << 20)]);
    expect(summary).toMatchObject({ files: 2, parsed: 0, reused: 1, skipped: { timeout: 1 } });
  });
});

describe('a failing worker costs only the file that caused it', () => {
  const files = { 'a.py': GOOD, 'b.py': 'def bad():\n    pass\n', 'c.py': 'def fine():\n    return ok()\n' };

  test.each([
    ['throw', 'worker-error'],
    ['exit', 'worker-error'],
  ] as const)('a worker that does "%s" mid-file', async (fault, reason) => {
    const root = makeRepo(files);
    const summary = await indexJson(root, ['--jobs', '1'], faultEnv(fault, 'b.py'));
    expect(summary).toMatchObject({ files: 3, parsed: 2, skipped: { [reason]: 1 } });
  });

  test('a pool with nothing to parse waits for its workers to boot before stopping them', async () => {
    const root = makeRepo({ 'large.py': `X = "${'x'.repeat(5000)}"\n` });
    const booted = join(root, '..', `${basename(root)}-booted`);
    const summary = await indexJson(root, ['--jobs', '2', '--max-file-bytes', '4096'], faultEnv('slow-boot', booted));
    expect(summary).toMatchObject({ parsed: 0, skipped: { 'too-large': 1 } });
    expect(readFileSync(booted, 'utf8')).toBe('booted\nbooted\n');
  });

  test('a worker that hangs is stopped and the file marked as timed out', async () => {
    const root = makeRepo(files);
    const summary = await indexJson(root, ['--jobs', '1', '--file-timeout-ms', String(SMALL_FILE_TIMEOUT_MS)], faultEnv('hang', 'b.py'));
    expect(summary).toMatchObject({ files: 3, parsed: 2, skipped: { timeout: 1 } });
  });

  test('a worker busy inside tree-sitter past its watchdog is left to finish, never terminated there', async () => {
    const root = makeRepo({ 'b.py': files['b.py'] });
    const summary = await indexJson(root, ['--jobs', '1', '--file-timeout-ms', String(SMALL_FILE_TIMEOUT_MS)], faultEnv('stall', 'b.py'));
    expect(summary).toMatchObject({ files: 1, parsed: 1, skipped: {}, defs: 1 });
  });
});

describe('a native crash takes the process down; the next run quarantines the file', () => {
  const root = makeRepo({ 'a.py': GOOD, 'b.py': 'def crashes():\n    pass\n', 'c.py': 'def fine():\n    return ok()\n' });
  const crash = faultEnv('crash', 'b.py');

  test('the crashing run dies', async () => {
    const result = await runCli(['index', root, '--jobs', '1'], { env: crash });
    expect(result.signal).toBe('SIGSEGV');
  });

  test('the next run names the file, skips it and indexes the rest', async () => {
    const result = await runCli(['index', root, '--json'], { env: crash });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('quarantined b.py');
    expect(JSON.parse(result.stdout)).toMatchObject({ files: 3, skipped: { quarantined: 1 } });
    expect(await cliTags(root)).toEqual(['a.py:1 def function ok', 'a.py:2 ref call helper', 'c.py:1 def function fine', 'c.py:2 ref call ok']);
  });

  test('the file stays quarantined until it changes', async () => {
    expect(await indexJson(root)).toMatchObject({ parsed: 0, reused: 3, skipped: { quarantined: 1 } });
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'b.py'), later, later);
    expect(await indexJson(root)).toMatchObject({ parsed: 1, skipped: {} });
  });
});

describe('a crash on a file whose name holds a newline: quarantined all the same', () => {
  const name = 'b\nx.py';
  const root = makeRepo({ 'a.py': GOOD, [name]: 'def crashes():\n    pass\n' });
  const crash = faultEnv('crash', name);

  test('the crashing run dies and leaves a journal only its owner can read', async () => {
    const result = await runCli(['index', root, '--jobs', '1'], { env: crash });
    expect(result.signal).toBe('SIGSEGV');
    const journals = readdirSync(join(root, '.repomap')).filter((entry) => entry.startsWith('parsing-'));
    expect(journals.length).toBeGreaterThan(0);
    for (const journal of journals) expect(statSync(join(root, '.repomap', journal)).mode & 0o777).toBe(0o600);
  });

  test('the next run quarantines it, naming it on one line, and the one after reuses the quarantine', async () => {
    const result = await runCli(['index', root, '--json'], { env: crash });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([
      'repomap: warning: quarantined b\\nx.py: parsing it crashed the process; it is skipped until it changes',
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({ files: 2, parsed: 1, skipped: { quarantined: 1 } });
    expect(await indexJson(root, [], crash)).toMatchObject({ parsed: 0, reused: 2, skipped: { quarantined: 1 } });
  });
});
