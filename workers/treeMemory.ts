import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Node's tree-sitter frees a tree's native memory only when V8 collects the tree's small JS
 * wrapper and the event loop then runs its finalizer; V8 does not see the native memory, so it
 * rarely bothers. Measured here: 3,000 parses of a 24 KB Go file grew RSS by 660 MB; collecting
 * every 100 parses and yielding kept it flat at 97 MB. The wrappers die young, so a scavenge
 * (minor GC, under 1 ms) frees them as well as a full collection (2–4 ms) does.
 */
const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void;
let bytesSinceCollect = 0;

/** Counts parsed bytes; past the threshold, collects and yields so tree finalizers run. */
export async function releaseTrees(bytesParsed: number): Promise<void> {
  bytesSinceCollect += bytesParsed;
  if (bytesSinceCollect < COLLECT_EVERY_BYTES) return;
  bytesSinceCollect = 0;
  collectGarbage({ type: 'minor' });
  await new Promise<void>((resolve) => setImmediate(resolve));
}
