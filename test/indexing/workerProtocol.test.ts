import { spawnSync } from 'node:child_process';
import { Piscina } from 'piscina';
import { describe, expect, test } from 'vitest';
import {
  GATE_BYTES,
  isParseShardRequest,
  isParseWorkerReply,
  type ParseShardRequest,
  readReports,
  WorkerProtocolError,
} from '../../dist/src/indexing/workerProtocol.js';
import { parseWorkerFile, suspectCheckerFile } from '../../dist/src/packageFiles.js';
import { makeRepo } from '../support/cli.js';

const root = makeRepo({ 'a.py': 'def a():\n    return b()\n' });
const request: ParseShardRequest = {
  kind: 'parse-shard',
  root,
  files: [{ path: 'a.py', language: 'python', mtimeMs: 1, size: 24, ctimeMs: 1, ino: 7 }],
  maxFileBytes: 1 << 20,
  fileTimeoutMs: 1000,
  journalDir: null,
  gate: new SharedArrayBuffer(GATE_BYTES),
};

describe('the parse worker', () => {
  test('answers a request with a shard result its guard accepts', async () => {
    const pool = new Piscina({ filename: parseWorkerFile(), minThreads: 1, maxThreads: 1 });
    try {
      expect(isParseShardRequest(request)).toBe(true);
      // A gate the coordinator cannot see the worker write to is no gate.
      expect(isParseShardRequest({ ...request, gate: new ArrayBuffer(GATE_BYTES) })).toBe(false);
      const reply: unknown = await pool.run(request);
      expect(isParseWorkerReply(reply)).toBe(true);
      expect(reply).toMatchObject({ kind: 'shard-result', parsed: 1 });
      expect(await pool.run({ ...request, files: [{ path: 'a.py', language: 'cobol' }] })).toMatchObject({
        kind: 'request-rejected',
        reason: expect.stringContaining('malformed parse-shard request'),
      });
    } finally {
      await pool.close();
    }
  });

  test('is a worker only: importing it in this thread throws before it touches anything', async () => {
    await expect(import(parseWorkerFile())).rejects.toThrow('runs only in a worker thread');
  });
});

describe('the suspect checker', () => {
  const check = (argument: string) => readReports(spawnSync(process.execPath, [suspectCheckerFile(), argument], { encoding: 'utf8' }).stdout);

  test('reports each file before and after parsing it', () => {
    const { root, files, maxFileBytes, fileTimeoutMs } = request;
    expect(check(JSON.stringify({ kind: 'check-suspects', root, files, maxFileBytes, fileTimeoutMs }))).toEqual([
      { kind: 'parse-started', path: 'a.py' },
      { kind: 'parse-done', path: 'a.py' },
    ]);
  });

  test('rejects a request it cannot read', () => {
    expect(check('{"kind":"parse-shard"}')).toEqual([{ kind: 'request-rejected', reason: expect.stringContaining('malformed check-suspects request') }]);
  });

  test('a report line that is not a report is a protocol error; a torn last line is dropped', () => {
    expect(() => readReports('started\ta.py\n')).toThrow(WorkerProtocolError);
    expect(() => readReports('{"kind":"parse-done"}\n')).toThrow(WorkerProtocolError);
    expect(readReports('{"kind":"parse-started","path":"a.py"}\n{"kind":"parse-do')).toEqual([{ kind: 'parse-started', path: 'a.py' }]);
  });
});
