import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { ParseShardRequest, ShardResult } from '../src/indexing/workerProtocol.js';
import { encodeRecord } from '../src/record/recordCodec.js';
import { buildRecord } from './buildRecord.js';
import type { TreeSitterGate } from './treeSitterGate.js';

/**
 * Parses a request's files in order, each noted in the journal first, and joins their stored
 * values: the work of a parse worker's shard and of a parse in the coordinator's own thread.
 * `afterFile` is told each file's size (a worker frees trees by it).
 */
export async function parseFiles(request: ParseShardRequest, gate: TreeSitterGate, afterFile?: (bytes: number) => Promise<void>): Promise<ShardResult> {
  const journal = request.journalDir ? parsingJournal(request.journalDir) : null;
  const values: Uint8Array[] = [];
  let parsed = 0;
  try {
    for (const file of request.files) {
      journal?.note(file.path);
      const record = buildRecord(request, file, gate);
      if (!record.skipped) parsed++;
      values.push(encodeRecord(record));
      await afterFile?.(file.size);
    }
    journal?.note('');
  } finally {
    journal?.close();
  }
  gate.done();

  const total = values.reduce((sum, value) => sum + value.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const value of values) {
    joined.set(value, offset);
    offset += value.length;
  }
  return { kind: 'shard-result', values: joined, lengths: values.map((v) => v.length), parsed };
}

interface ParsingJournal {
  /** Records the file about to be parsed ('' when none), before parsing, to survive a crash. */
  note(path: string): void;
  close(): void;
}

/**
 * One small file per thread, rewritten in place before each file: a native crash in
 * tree-sitter kills the whole process, and this is how the next run learns which file did it.
 * Opened for each request, not kept: a run removes its journals when it ends, and a thread that
 * parses for the next run too (the coordinator's, in a long-lived host) must write a journal
 * that exists. One that cannot be made or written (a full disk) only costs that: the files are parsed.
 */
function parsingJournal(dir: string): ParsingJournal {
  let fd: number;
  try {
    fd = openSync(join(dir, `parsing-${process.pid}-${threadId}`), 'w', 0o600);
  } catch {
    return { note() {}, close() {} };
  }
  return {
    note(path) {
      try {
        // As JSON: a file name may hold a newline, and the reader takes the first line.
        writeSync(fd, `${JSON.stringify(path)}\n`, 0);
      } catch {
        // Unwritten: see above.
      }
    },
    close() {
      try {
        closeSync(fd);
      } catch {
        // Closed already: nothing was lost.
      }
    },
  };
}
