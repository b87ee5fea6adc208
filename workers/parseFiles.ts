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
  for (const file of request.files) {
    journal?.note(file.path);
    const record = buildRecord(request, file, gate);
    if (!record.skipped) parsed++;
    values.push(encodeRecord(record));
    await afterFile?.(file.size);
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
  return { kind: 'shard-result', values: joined, lengths: values.map((v) => v.length), parsed };
}

interface ParsingJournal {
  /** Records the file about to be parsed ('' when none), before parsing, to survive a crash. */
  note(path: string): void;
}

let openJournal: { dir: string; fd: number } | null = null;

/**
 * One small file per thread, rewritten in place before each file: a native crash in
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
