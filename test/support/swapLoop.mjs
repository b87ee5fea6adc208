// @ts-check
/**
 * A hostile repository's file, swapped under a running index (see test/indexing/swapRace.test.ts):
 * `node swapLoop.mjs <target> <regular text file> <intruder> <stage dir> <seconds>` renames, in
 * turn, a fresh copy of the regular file and `intruder` over `target` (a symlink to `intruder`
 * when it is a file, a hard link of it when it is a FIFO), each staying about a millisecond:
 * whatever moment a run looks at the name, either may be there. Stops by itself after `seconds`,
 * the regular copy in place.
 */
import { copyFileSync, linkSync, lstatSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const [target, regular, intruder, stage, seconds] = process.argv.slice(2);
if (!target || !regular || !intruder || !stage || !seconds) throw new Error('usage: swapLoop.mjs <target> <regular> <intruder> <stage> <seconds>');
const fifo = lstatSync(intruder).isFIFO();
const until = Date.now() + Number(seconds) * 1000;
const staged = join(stage, 'staged');
const pause = new Int32Array(new SharedArrayBuffer(4));
let swaps = 0;
while (Date.now() < until) {
  if (fifo) linkSync(intruder, staged);
  else symlinkSync(intruder, staged);
  renameSync(staged, target);
  Atomics.wait(pause, 0, 0, 1);
  copyFileSync(regular, staged);
  renameSync(staged, target);
  Atomics.wait(pause, 0, 0, 1);
  swaps++;
}
process.stdout.write(`${swaps}\n`);
