import { closeSync, constants, fstatSync, futimesSync, lstatSync, openSync, readFileSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processIsAlive } from '../processAlive.js';

const LOCK_FILE = 'indexing.lock';

const POLL_MS = 50;
/** The holder touches its lock this often; one untouched for STALE_MS is stale, whatever its pid (reused, another host's). */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;
/** A lock is written as it is made: one still empty (or unreadable) longer than this was never ours. */
const UNWRITTEN_MS = 1_000;
/** A pid, a host name (at most 255 bytes) and a boot id fit; a longer lock is no lock of ours, and is read no further. */
const LOCK_HEAD_BYTES = 512;

/** Lock files this process holds: a lock naming our own pid is stale unless it is here. */
const heldHere = new Set<string>();

export interface IndexerLock {
  release(): void;
}

/**
 * This boot's id (Linux; null elsewhere), written in every lock: a lock that does not carry it was
 * not made since this machine started, by any run of ours, so a lock committed to a repository or
 * left from before a reboot never makes a run wait. Containers on one kernel share it. Read when
 * a lock is first made or read: a warm map takes none.
 */
let bootIdRead: { id: string | null } | null = null;

function bootId(): string | null {
  if (bootIdRead) return bootIdRead.id;
  let id: string | null = null;
  try {
    const text = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(text)) id = text;
  } catch {
    // No /proc: locks carry no boot id.
  }
  bootIdRead = { id };
  return id;
}

/** What a lock file holds: `pid host boot-id` (no boot id where there is none). */
export function lockContent(pid: number): string {
  const boot = bootId();
  return `${pid} ${hostname()}${boot ? ` ${boot}` : ''}\n`;
}

/**
 * One indexer per store at a time: `indexing.lock` in the cache folder names the pid, host and boot of
 * the run writing the store. A second run waits for it (saying so once) to finish or die, at most
 * `waitMs`, then goes on without the lock (null): the lock only saves work, as LMDB serialises
 * writers and a record is the same whoever writes it. A lock that cannot be made (a symlink in
 * its place, a read-only folder) is also null, with a warning.
 */
export async function lockIndexer(cacheDir: string, waitMs: number, warn: (message: string) => void): Promise<IndexerLock | null> {
  const path = join(cacheDir, LOCK_FILE);
  const deadline = performance.now() + waitMs;
  let waiting = false;
  for (;;) {
    try {
      return createLock(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return cannotLock(path, error, warn);
    }
    let holder: Holder | null;
    try {
      holder = readHolder(path);
    } catch (error) {
      return cannotLock(path, error, warn);
    }
    if (holder === null) continue;
    if (!holder.live) {
      removeIfSame(path, holder.ino);
      continue;
    }
    const left = deadline - performance.now();
    if (left <= 0) {
      warn(`${holder.name} is still indexing ${cacheDir}${waiting ? ` after ${waitMs / 1000} s` : ''}; indexing anyway`);
      return null;
    }
    if (!waiting) {
      waiting = true;
      warn(`${holder.name} is indexing ${cacheDir}: waiting for it (up to ${waitMs / 1000} s)`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}

function createLock(path: string): IndexerLock {
  const fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, lockContent(process.pid));
  } catch (error) {
    // An empty lock left behind (a full disk) would look like a run starting to every later run.
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  heldHere.add(path);
  const heartbeat = setInterval(() => {
    try {
      futimesSync(fd, new Date(), new Date());
    } catch {
      // A lock that cannot be touched only goes stale sooner.
    }
  }, HEARTBEAT_MS).unref();
  return {
    release() {
      clearInterval(heartbeat);
      closeSync(fd);
      heldHere.delete(path);
      try {
        unlinkSync(path);
      } catch {
        // Gone already: nothing to release.
      }
    },
  };
}

interface Holder {
  /** For messages: `repomap (pid 123)`. */
  name: string;
  live: boolean;
  ino: number;
}

/** Who holds the lock at `path`, or null when it went away meanwhile. */
function readHolder(path: string): Holder | null {
  let fd: number;
  try {
    // Non-blocking: a FIFO in its place must not hang the run.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a regular file');
    const { mtimeMs, ino } = stat;
    const head = Buffer.alloc(LOCK_HEAD_BYTES);
    const match = /^(\d+) (\S+)(?: (\S+))?\n/.exec(head.toString('utf8', 0, readSync(fd, head, 0, LOCK_HEAD_BYTES, 0)));
    const pid = Number(match?.[1]);
    const name = match ? `repomap (pid ${pid}${match[2] === hostname() ? '' : ` on ${match[2]}`})` : 'another repomap';
    const age = Date.now() - mtimeMs;
    const boot = bootId();
    const thisBoot = boot === null || (match === null ? age < UNWRITTEN_MS : match[3] === boot);
    return { name, live: thisBoot && age < STALE_MS && holderIsAlive(path, pid, match?.[2]), ino };
  } finally {
    closeSync(fd);
  }
}

/** A lock still empty is being written; one of another host can only go stale. */
function holderIsAlive(path: string, pid: number, host: string | undefined): boolean {
  if (host === undefined || host !== hostname()) return true;
  return pid === process.pid ? heldHere.has(path) : processIsAlive(pid);
}

/** Removes a stale lock, unless another run replaced it since it was read. */
function removeIfSame(path: string, ino: number): void {
  try {
    if (lstatSync(path).ino === ino) unlinkSync(path);
  } catch {
    // Removed by another run meanwhile.
  }
}

function cannotLock(path: string, error: unknown, warn: (message: string) => void): null {
  // A full disk is the store's one warning: it checks for room before each write it would make.
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return null;
  warn(`cannot lock ${path} (${error instanceof Error ? error.message : String(error)}); indexing without the lock`);
  return null;
}
