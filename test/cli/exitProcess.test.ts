import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';

const EXIT_PROCESS = new URL('../../dist/src/cli/exitProcess.js', import.meta.url).href;

/** Settles, then runs a loop hot enough to be optimized twice over, tracing V8's optimizer. */
const SCRIPT = `
import { settleBackgroundCompiles } from ${JSON.stringify(EXIT_PROCESS)};
settleBackgroundCompiles();
console.log('settled');
function hot(n) { let sum = 0; for (let i = 0; i < n; i++) sum += i % 7; return sum; }
let total = 0;
for (let i = 0; i < 20000; i++) total += hot(200);
console.log(total);
`;

test('before the CLI exits, no optimizing compile is running and none can start (the exit deadlock of nodejs/node#54918)', () => {
  const result = spawnSync(process.execPath, ['--trace-opt', '--input-type=module', '-e', SCRIPT], { encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const afterSettling = result.stdout.split('settled\n')[1];
  // Without the settling, the trace shows `hot` marked and compiled here.
  expect(afterSettling).toBe('11880000\n');
});
