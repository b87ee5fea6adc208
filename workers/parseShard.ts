import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { ParseShardRequest, ShardFile, ShardResult } from '../src/indexing/shardMessages.js';
import { emptyRecord, type FileRecord } from '../src/record/fileRecord.js';
import { encodeRecord } from '../src/record/recordCodec.js';
import { extractRecord, ParseTimeoutError } from './extractRecord.js';
import { injectFault } from './faultInjection.js';
import { readSource } from './readSource.js';
import { releaseTrees } from './treeMemory.js';

/** The Piscina task: parse a shard's files and return their stored values in one moved buffer. */
export default async function parseShard(request: ParseShardRequest): Promise<ShardResult> {
  const journal = request.journalDir ? parsingJournal(request.journalDir) : null;
  const values: Uint8Array[] = [];
  let parsed = 0;
  for (const file of request.files) {
    journal?.note(file.path);
    const record = buildRecord(request, file);
    if (!record.skipped) parsed++;
    values.push(encodeRecord(record));
    await releaseTrees(file.size);
  }
  journal?.note('');

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
  }) as unknown as ShardResult;
}

export function buildRecord(request: Pick<ParseShardRequest, 'root' | 'maxFileBytes' | 'fileTimeoutMs'>, file: ShardFile): FileRecord {
  const source = readSource(join(request.root, file.path), request.maxFileBytes);
  if (source.skipped) return emptyRecord(file.path, file.mtimeMs, file.size, file.language, source.skipped);
  try {
    injectFault(file.path);
    return extractRecord({ ...file, text: source.text }, request.fileTimeoutMs);
  } catch (error) {
    const reason = error instanceof ParseTimeoutError ? 'timeout' : 'worker-error';
    return emptyRecord(file.path, file.mtimeMs, file.size, file.language, reason);
  }
}

interface ParsingJournal {
  /** Records the file about to be parsed ('' when none), before parsing, to survive a crash. */
  note(path: string): void;
}

let openJournal: { dir: string; fd: number } | null = null;

/**
 * One small file per worker thread, rewritten in place before each file: a native crash in
 * tree-sitter kills the whole process, and this is how the next run learns which file did it.
 */
function parsingJournal(dir: string): ParsingJournal {
  if (openJournal?.dir !== dir) {
    if (openJournal) closeSync(openJournal.fd);
    openJournal = { dir, fd: openSync(join(dir, `parsing-${process.pid}-${threadId}`), 'w') };
  }
  const { fd } = openJournal;
  return {
    note(path) {
      writeSync(fd, `${path}\n`, 0);
    },
  };
}
