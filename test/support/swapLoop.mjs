// @ts-check
/**
 * A hostile repository's files, swapped under a running index (see test/indexing/swapRace.test.ts):
 * `node swapLoop.mjs <intruder> <stage dir> <seconds> <target> <its regular text file> …` flips a
 * target picked at random every half millisecond, renaming over it either a fresh copy of its
 * regular file or `intruder` (a symlink to it when it is a file, a hard link of it when it is a
 * FIFO): whatever moment a run looks at a name, either may be there, whatever it saw at the
 * others. Stops by itself after `seconds`, each regular copy back in place.
 */
import { copyFileSync, linkSync, lstatSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const [intruderArg, stage, seconds, ...pairs] = process.argv.slice(2);
if (!intruderArg || !stage || !seconds || pairs.length === 0 || pairs.length % 2 !== 0) {
  throw new Error('usage: swapLoop.mjs <intruder> <stage dir> <seconds> <target> <regular> …');
}
const intruder = intruderArg;
const targets = Array.from({ length: pairs.length / 2 }, (_, i) => ({ path: String(pairs[2 * i]), regular: String(pairs[2 * i + 1]), intruded: false }));
const fifo = lstatSync(intruder).isFIFO();
const staged = join(stage, 'staged');
const pause = new Int32Array(new SharedArrayBuffer(4));

/** @param {{ path: string, regular: string, intruded: boolean }} target */
function flip(target) {
  if (target.intruded) copyFileSync(target.regular, staged);
  else if (fifo) linkSync(intruder, staged);
  else symlinkSync(intruder, staged);
  renameSync(staged, target.path);
  target.intruded = !target.intruded;
}

const until = Date.now() + Number(seconds) * 1000;
while (Date.now() < until) {
  const target = targets[Math.floor(Math.random() * targets.length)];
  if (target) flip(target);
  Atomics.wait(pause, 0, 0, 0.5);
}
for (const target of targets) if (target.intruded) flip(target);
