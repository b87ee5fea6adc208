import type { ParseLimits, ShardFile } from '../src/indexing/workerProtocol.js';
import { emptyRecord, type FileRecord } from '../src/record/fileRecord.js';
import { FileTimeoutError } from './deadline.js';
import { extractRecord } from './extractRecord.js';
import { readSource } from './readSource.js';
import { type TreeSitterGate, UNGUARDED } from './treeSitterGate.js';

/**
 * A file's record: its tags, or none and the reason why. A file that cannot be parsed does not
 * throw. The record carries the stamp of what was read, not discovery's: a file changed or
 * swapped since is parsed again by the next run.
 */
export function buildRecord(limits: ParseLimits, file: ShardFile, gate: TreeSitterGate = UNGUARDED): FileRecord {
  const source = readSource(limits.root, file.path, limits.maxFileBytes);
  if (source.skipped) return { ...emptyRecord(file.path, source.stamp ?? file, file.language, source.skipped), content: source.content };
  const read = { ...file, ...source.stamp };
  try {
    return extractRecord({ ...read, text: source.text, bytes: source.bytes }, limits.fileTimeoutMs, gate);
  } catch (error) {
    const reason = error instanceof FileTimeoutError ? 'timeout' : 'worker-error';
    return emptyRecord(file.path, read, file.language, reason);
  }
}
