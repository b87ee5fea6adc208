import { writeSync } from 'node:fs';
import type { ShardFile } from '../src/indexing/shardMessages.js';
import { buildRecord } from './parseShard.js';

/**
 * Run as a child process after a crash: parses the files the dead run was parsing, one at a
 * time, writing `started\t<path>` and `done\t<path>` lines to stdout with blocking writes, so
 * that if a file takes this process down the parent still reads which one.
 */
export interface SuspectCheckRequest {
  root: string;
  files: ShardFile[];
  maxFileBytes: number;
  fileTimeoutMs: number;
}

const request = JSON.parse(process.argv[2]!) as SuspectCheckRequest;
for (const file of request.files) {
  writeSync(1, `started\t${file.path}\n`);
  buildRecord(request, file);
  writeSync(1, `done\t${file.path}\n`);
}
