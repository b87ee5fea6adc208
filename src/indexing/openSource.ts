import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { type FileStamp, NO_FILE_STAMP, type SkipReason } from '../record/fileRecord.js';

/**
 * The one way a file of the repository is opened for reading. Its name is resolved once: whatever
 * is checked (inside the root, a regular file) and whatever is read and stamped is the file that
 * one open found, so a symlink or FIFO swapped in after discovery is refused, never read, and
 * never waited on. Reads are bounded.
 */

export type OpenedSource =
  | { fd: number; stamp: FileStamp; skipped: null }
  /** `stamp` is what the record is valid for: null when nothing was opened (the stamp discovery found stands), NO_FILE_STAMP when what was opened was refused. */
  | { fd: null; stamp: FileStamp | null; skipped: Extract<SkipReason, 'unreadable' | 'not-regular' | 'outside-root'> };

export type SourceBytes =
  | { bytes: Buffer; stamp: FileStamp; skipped: null }
  | { bytes: null; stamp: FileStamp | null; skipped: Extract<SkipReason, 'unreadable' | 'not-regular' | 'outside-root' | 'too-large'> };

/** open(2)'s O_PATH (Linux; Node does not name it): opens the file without reading it, so a FIFO does not block and no device's driver is called. */
const O_PATH = 0o10000000;
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
/** Where the kernel names what a descriptor holds, whatever symlinks or renamed folders led to it. */
const PROC_FDS = process.platform === 'linux' && existsSync('/proc/self/fd');

const UNREADABLE: OpenedSource = { fd: null, stamp: null, skipped: 'unreadable' };

/**
 * The bytes of `path` (relative to `root`, a real path), if its stat says at most `maxBytes`, with
 * that stat. No more than the stat's size is read: a file that grows meanwhile is cut there, and
 * its stamp, taken before, has the next run read it again.
 */
export function readSourceBytes(root: string, path: string, maxBytes: number): SourceBytes {
  const opened = openSource(root, path);
  if (opened.skipped) return { bytes: null, stamp: opened.stamp, skipped: opened.skipped };
  const { fd, stamp } = opened;
  try {
    if (stamp.size > maxBytes) return { bytes: null, stamp, skipped: 'too-large' };
    return { bytes: readUpTo(fd, stamp.size), stamp, skipped: null };
  } catch {
    return { bytes: null, stamp, skipped: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

/** Opens `path` (relative to `root`, a real path) for reading, or says why not; the caller closes `fd`. */
export function openSource(root: string, path: string): OpenedSource {
  return PROC_FDS ? openThroughProc(root, path) : openSourceByName(root, path);
}

function openThroughProc(root: string, path: string): OpenedSource {
  let pathFd: number;
  try {
    pathFd = openSync(join(root, path), O_PATH);
  } catch {
    return UNREADABLE;
  }
  try {
    const opened = `/proc/self/fd/${pathFd}`;
    if (!isInside(readlinkSync(opened, { encoding: 'buffer' }), root)) return refused('outside-root');
    const stat = fstatSync(pathFd);
    if (!stat.isFile()) return refused('not-regular');
    // Reopening the descriptor's link opens the very file it holds, not whatever the name now leads to.
    return { fd: openSync(opened, READ_FLAGS), stamp: stampOf(stat), skipped: null };
  } catch {
    return UNREADABLE;
  } finally {
    closeSync(pathFd);
  }
}

/**
 * Where there is no /proc: opens the name without blocking, then requires the name's real path to
 * lie inside the root and to lead to the file opened. A device is opened before it is refused.
 */
export function openSourceByName(root: string, path: string): OpenedSource {
  const absolute = join(root, path);
  let fd: number;
  try {
    fd = openSync(absolute, READ_FLAGS);
  } catch {
    return UNREADABLE;
  }
  let outcome: OpenedSource = UNREADABLE;
  try {
    const stat = fstatSync(fd);
    const real = realpathSync(absolute, { encoding: 'buffer' });
    const named = statSync(real);
    if (!isInside(real, root) || named.dev !== stat.dev || named.ino !== stat.ino) outcome = refused('outside-root');
    else if (!stat.isFile()) outcome = refused('not-regular');
    else outcome = { fd, stamp: stampOf(stat), skipped: null };
  } catch {
    // UNREADABLE
  } finally {
    if (outcome.fd === null) closeSync(fd);
  }
  return outcome;
}

/** Nothing of a refused file is kept, not even its stat: its record matches no file, so the next run opens the name again. */
function refused(skipped: 'not-regular' | 'outside-root'): OpenedSource {
  return { fd: null, stamp: NO_FILE_STAMP, skipped };
}

let rootPrefix = { root: '', bytes: Buffer.alloc(0) };

/** Compared as bytes: a file name need not be UTF-8. */
function isInside(real: Buffer, root: string): boolean {
  if (rootPrefix.root !== root) rootPrefix = { root, bytes: Buffer.from(root.endsWith(sep) ? root : `${root}${sep}`) };
  const prefix = rootPrefix.bytes;
  return real.length > prefix.length && prefix.equals(real.subarray(0, prefix.length));
}

/** The first `size` bytes, fewer if the file ends sooner. */
function readUpTo(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(size);
  let length = 0;
  while (length < size) {
    const read = readSync(fd, buffer, length, size - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

function stampOf(stat: Stats): FileStamp {
  return { mtimeMs: stat.mtimeMs, size: stat.size, ctimeMs: stat.ctimeMs, ino: stat.ino };
}
