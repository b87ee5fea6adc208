import { closeSync } from 'node:fs';
import type { DiscoveredFile } from '../discover/discoverFiles.js';
import { configuresImports } from '../discover/languages.js';
import { contentIdOf } from '../record/contentId.js';
import { emptyRecord, type FileStamp, type SkipReason } from '../record/fileRecord.js';
import { encodeRecord, type StoredStamp, sameFile } from '../record/recordCodec.js';
import type { StampTable } from '../record/stampTable.js';
import { openSource, readSourceBytes } from './openSource.js';
import type { ParseLimits, ShardFile } from './workerProtocol.js';

export interface IndexPlan {
  toParse: ShardFile[];
  /** Records of files no worker needs to read: no grammar, or too large. */
  unparsable: Map<string, Uint8Array>;
  /** Files whose stamp changed but whose bytes are those their record was made from, with the stamp they were read under. */
  restamps: Map<string, FileStamp>;
  removals: string[];
  /** Records that stand, restamped ones included. */
  reused: number;
  /** Per file, its stored stamp when planned (undefined where it had none). */
  storedStamps: (StoredStamp | undefined)[];
}

/**
 * What a run must do: which files to parse, which records to write, restamp or drop, how many
 * stand. A file whose stat changed but not its size is read and its content id compared with its
 * record's (`storedContent`) first: a touch, a checkout or a copy costs a read, not a parse.
 */
export function planIndex(
  files: readonly DiscoveredFile[],
  stamps: StampTable,
  limits: ParseLimits,
  storedContent: (path: string) => string | undefined = () => undefined,
): IndexPlan {
  const matched = stamps.match(files.map((file) => file.path));
  const plan: IndexPlan = { toParse: [], unparsable: new Map(), restamps: new Map(), removals: matched.unmatched, reused: 0, storedStamps: matched.stamps };
  files.forEach((file, i) => {
    const stamp = matched.stamps[i];
    if (stamp !== undefined && recordStands(stamp, file, limits)) {
      plan.reused++;
      return;
    }
    const unchanged = stamp !== undefined && sameBytes(stamp, file, limits, storedContent);
    if (unchanged) {
      plan.restamps.set(file.path, unchanged);
      plan.reused++;
      return;
    }
    if (file.language === null && configuresImports(file.path)) {
      const manifest = manifestPlan(file, stamp, limits, storedContent);
      if (manifest instanceof Uint8Array) plan.unparsable.set(file.path, manifest);
      else {
        plan.restamps.set(file.path, manifest);
        plan.reused++;
      }
    } else if (file.language === null || file.size > limits.maxFileBytes) {
      const reason: SkipReason = file.language === null ? 'no-grammar' : 'too-large';
      // Skipped for the same reason again: its record never depended on its bytes, so it is the stored one under the new stamp.
      if (stamp?.skipped === reason) {
        plan.restamps.set(file.path, file);
        plan.reused++;
        return;
      }
      plan.unparsable.set(file.path, encodeRecord(emptyRecord(file.path, file, file.language, reason)));
    } else {
      plan.toParse.push({ ...file, language: file.language });
    }
  });
  return plan;
}

/** Whether a stored record still holds for the file under this run's limits, as a fresh parse would find. */
function recordStands(stamp: StoredStamp, file: DiscoveredFile, limits: ParseLimits): boolean {
  if (!sameFile(stamp, file)) return false;
  // Too large or not follows the limit both ways.
  if ((file.language !== null && file.size > limits.maxFileBytes) !== (stamp.skipped === 'too-large')) return false;
  switch (stamp.skipped) {
    // Retried once under the same limit too: a deadline is wall time, and a loaded machine misses it once.
    case 'timeout':
      return limits.fileTimeoutMs <= stamp.fileTimeoutMs && stamp.retries > 0;
    // A permission or a passing I/O error: one open tells, where a parse would cost a worker.
    case 'unreadable':
      return !canOpen(limits.root, file.path);
    // Retried once: an error that comes back is the file's, and would cost a parse on every map.
    case 'worker-error':
      return stamp.retries > 0;
    default:
      return true;
  }
}

/** Records made from the file's bytes alone: parsed, or found no UTF-8 text. Other skips depend on the run (a deadline, a worker) or on no bytes. */
const FROM_BYTES: readonly (SkipReason | null)[] = [null, 'empty', 'binary', 'invalid-utf8'];

/** The stamp the file was read under, when its bytes have the content id of the record made from them; null otherwise. */
function sameBytes(stamp: StoredStamp, file: DiscoveredFile, limits: ParseLimits, storedContent: (path: string) => string | undefined): FileStamp | null {
  if (!FROM_BYTES.includes(stamp.skipped) || stamp.size !== file.size || file.language === null || file.size > limits.maxFileBytes) return null;
  const stored = storedContent(file.path);
  if (!stored) return null;
  const { bytes, stamp: read } = readSourceBytes(limits.root, file.path, limits.maxFileBytes);
  return bytes && read && contentIdOf(bytes) === stored ? read : null;
}

/**
 * A file import resolution reads (see configuresImports): the stamp to restamp its record under
 * when its bytes are those the record was made from, else a new record carrying their content
 * id, so that the tables derived from it are built again.
 */
function manifestPlan(
  file: DiscoveredFile,
  stamp: StoredStamp | undefined,
  limits: ParseLimits,
  storedContent: (path: string) => string | undefined,
): FileStamp | Uint8Array {
  const { bytes, stamp: read } = readSourceBytes(limits.root, file.path, limits.maxFileBytes);
  const content = bytes ? contentIdOf(bytes) : '';
  if (read && content !== '' && stamp?.skipped === 'no-grammar' && storedContent(file.path) === content) return read;
  return encodeRecord({ ...emptyRecord(file.path, read ?? file, null, 'no-grammar'), content });
}

function canOpen(root: string, path: string): boolean {
  const { fd } = openSource(root, path);
  if (fd === null) return false;
  closeSync(fd);
  return true;
}
