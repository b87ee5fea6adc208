import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { CLI, indexedRepo } from '../support/cli.js';

/** A handle left running in the process (a timer, as a stray worker or socket would be): it alone would keep Node alive. */
const STRAY_HANDLE = `--import=data:text/javascript,${encodeURIComponent('setInterval(() => {}, 1e6);')}`;

/**
 * A run whose stdout is not read for `pauseMs` (a reader busy elsewhere), then read to the end;
 * SIGKILLed if still alive `deadlineMs` after that.
 */
function runWithSlowReader(args: string[], pauseMs: number, deadlineMs: number): Promise<{ code: number | null; stdout: string; hung: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STRAY_HANDLE, CLI, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.pause();
    let hung = false;
    let deadline: NodeJS.Timeout | undefined;
    setTimeout(() => {
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stdout.resume();
      deadline = setTimeout(() => {
        hung = true;
        child.kill('SIGKILL');
      }, deadlineMs);
    }, pauseMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout: Buffer.concat(chunks).toString('utf8'), hung });
    });
  });
}

describe('a run is over once its output is read', () => {
  test('an output larger than the pipe, read late, is all read and the run exits, though a handle is left running', async () => {
    // 4,000 definitions: about 600 kB of tags, past any pipe's buffer.
    const source = Array.from({ length: 4000 }, (_, i) => `def function_number_${i}():\n    return ${i}\n`).join('');
    const root = await indexedRepo({ 'many.py': source });
    const result = await runWithSlowReader(['tags', root], 1000, 20_000);
    expect(result.hung).toBe(false);
    expect(result.code).toBe(0);
    const definitions = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; line: number; kind: string })
      .filter((tag) => tag.kind === 'def');
    expect(definitions).toHaveLength(4000);
    expect(definitions[3999]).toMatchObject({ name: 'function_number_3999', line: 7999 });
  });
});
