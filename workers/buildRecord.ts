import { join } from 'node:path';
import type { ParseLimits, ShardFile } from '../src/indexing/workerProtocol.js';
import { emptyRecord, type FileRecord } from '../src/record/fileRecord.js';
import { FileTimeoutError } from './deadline.js';
import { extractRecord } from './extractRecord.js';
import { readSource } from './readSource.js';
import { type TreeSitterGate, UNGUARDED } from './treeSitterGate.js';

/** A file's record: its tags, or none and the reason why. A file that cannot be parsed does not throw. */
export function buildRecord(limits: ParseLimits, file: ShardFile, gate: TreeSitterGate = UNGUARDED): FileRecord {
  const source = readSource(join(limits.root, file.path), limits.maxFileBytes);
  if (source.skipped) return emptyRecord(file.path, file.mtimeMs, file.size, file.language, source.skipped);
  try {
    return extractRecord({ ...file, text: source.text, bytes: source.bytes }, limits.fileTimeoutMs, gate);
  } catch (error) {
    const reason = error instanceof FileTimeoutError ? 'timeout' : 'worker-error';
    return emptyRecord(file.path, file.mtimeMs, file.size, file.language, reason);
  }
}
