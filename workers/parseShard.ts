import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { isParseShardRequest, malformed, type RequestRejected, type ShardResult } from '../src/indexing/workerProtocol.js';
import { encodeRecord, prepareRecordCodec } from '../src/record/recordCodec.js';
import { buildRecord } from './buildRecord.js';
import { disableNodeCache } from './nodeCache.js';
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
  const journal = request.journalDir ? parsingJournal(request.journalDir) : null;
  const gate = treeSitterGate(request.gate);
  const values: Uint8Array[] = [];
  let parsed = 0;
  for (const file of request.files) {
    journal?.note(file.path);
    const record = buildRecord(request, file, gate);
    if (!record.skipped) parsed++;
    values.push(encodeRecord(record));
    await releaseTrees(file.size);
  }
  journal?.note('');
  gate.done();

  const total = values.reduce((sum, value) => sum + value.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const value of values) {
    joined.set(value, offset);
    offset += value.length;
  }
  const result: ShardResult = { kind: 'shard-result', values: joined, lengths: values.map((v) => v.length), parsed };
  return move({
    get [transferableSymbol]() {
      return [joined.buffer];
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

interface ParsingJournal {
  /** Records the file about to be parsed ('' when none), before parsing, to survive a crash. */
  note(path: string): void;
}

let openJournal: { dir: string; fd: number } | null = null;

/**
 * One small file per worker thread, rewritten in place before each file: a native crash in
 * tree-sitter kills the whole process, and this is how the next run learns which file did it.
 * A journal that cannot be made or written (a full disk) only costs that: the files are parsed.
 */
function parsingJournal(dir: string): ParsingJournal {
  if (openJournal?.dir !== dir) {
    if (openJournal) closeSync(openJournal.fd);
    openJournal = null;
    try {
      openJournal = { dir, fd: openSync(join(dir, `parsing-${process.pid}-${threadId}`), 'w', 0o600) };
    } catch {
      return { note() {} };
    }
  }
  const { fd } = openJournal;
  return {
    note(path) {
      try {
        // As JSON: a file name may hold a newline, and the reader takes the first line.
        writeSync(fd, `${JSON.stringify(path)}\n`, 0);
      } catch {
        // Unwritten: see above.
      }
    },
  };
}
