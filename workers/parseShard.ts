import { isMainThread } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { isParseShardRequest, malformed, type RequestRejected } from '../src/indexing/workerProtocol.js';
import { prepareRecordCodec } from '../src/record/recordCodec.js';
import { disableNodeCache } from './nodeCache.js';
import { parseFiles } from './parseFiles.js';
import { treeReleaser } from './treeMemory.js';
import { treeSitterGate } from './treeSitterGate.js';

// The parse worker's entry: as the worker starts, it tunes the worker's own isolate and loads what every shard needs.
if (isMainThread) throw new Error('workers/parseShard.js is the parse worker: it runs only in a worker thread');
disableNodeCache();
settleBufferDetaching();
const releaseTrees = treeReleaser();
prepareRecordCodec();

/** The Piscina task: parse a shard's files and return their stored values in one moved buffer. */
export default async function parseShard(request: unknown): Promise<ReturnType<typeof move> | RequestRejected> {
  if (!isParseShardRequest(request)) return { kind: 'request-rejected', reason: malformed('parse-shard request', request) };
  const result = await parseFiles(request, treeSitterGate(request.gate), releaseTrees);
  return move({
    get [transferableSymbol]() {
      return [result.values.buffer];
    },
    get [valueSymbol]() {
      return result;
    },
  });
}

/**
 * Moving a shard's result detaches its buffer. The first detach in an isolate invalidates V8's
 * array-buffer-detaching protector, which throws away every optimized function that reads a
 * typed array (the term scan, LineTable.rowOf, the binding's node marshalling) to compile it
 * again: mid-run, after the first shard. Detaching a buffer of our own as the worker starts does
 * it before anything is optimized (optimizing compiles of a cold index: python-500 50 → 38, ts-500 48 → 38).
 */
function settleBufferDetaching(): void {
  const buffer = new ArrayBuffer(0);
  structuredClone(buffer, { transfer: [buffer] });
}
