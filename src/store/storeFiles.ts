import {
  accessSync,
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processIsAlive } from '../processAlive.js';

const { O_CREAT, O_EXCL, O_RDONLY, O_RDWR, O_WRONLY, R_OK, W_OK } = constants;
/** A data file being created is made as `<data>.<pid>.creating` first. */
const CREATION_MARK = '.creating';
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Where a store's files stand: none yet; ours (and whether they are as we last found them
 * sound); being created by another run this instant; or not ours to use, and why.
 */
export type StoreState =
  | { kind: 'absent' }
  | { kind: 'ours'; checked: boolean; stamp: string }
  | { kind: 'settling' }
  /** Made by a run that died before noting it (its creation mark says so): ours to remove. */
  | { kind: 'abandoned' }
  | { kind: 'foreign'; why: string };

/** What the note beside a store holds. */
interface StoreNote {
  /** The data file's identity when repomap created it. */
  identity: string;
  /** The data file's size and change time when repomap last found it sound, if it did. */
  checked: string | null;
}

/**
 * The files of one tag store: LMDB's data file and lock, and a note of the data file's identity
 * as repomap created it. A checkout, a copy or a file another user made has another identity, so
 * a store is ours only when its note says so. Files are opened and created without following
 * links, and only files that are ours are ever deleted.
 */
export class StoreFiles {
  readonly data: string;
  readonly lock: string;
  readonly note: string;

  constructor(dataPath: string) {
    this.data = dataPath;
    this.lock = `${dataPath}-lock`;
    this.note = `${dataPath}-id`;
  }

  state(): StoreState {
    const lock = lstatOrNull(this.lock);
    if (lock && !isOwnPlainFile(lock)) return { kind: 'foreign', why: `has a lock file that is ${fileKind(lock)}` };
    const data = lstatOrNull(this.data);
    if (!data) return { kind: 'absent' };
    if (!isOwnPlainFile(data)) return { kind: 'foreign', why: `is ${fileKind(data)}` };
    const note = this.readNote();
    // Another run creates the file, then notes it: an empty file without a note may be that run's.
    if (!note && data.size === 0n) return this.creationState();
    if (note?.identity !== identityOf(data)) return { kind: 'foreign', why: 'was not made by repomap here (delete it to let repomap make its own)' };
    const stamp = checkStampOf(data);
    return { kind: 'ours', checked: note.checked === stamp, stamp };
  }

  /** The data file's size and change time now: any write changes them. */
  checkStamp(): string {
    return checkStampOf(lstatSync(this.data, { bigint: true }));
  }

  /** Notes that the data file was sound at `stamp`, unless it has changed since. */
  noteChecked(stamp: string): void {
    try {
      const data = lstatSync(this.data, { bigint: true });
      if (checkStampOf(data) === stamp) this.writeNote({ identity: identityOf(data), checked: stamp });
    } catch {
      // Without the note, the next run checks the store again: slower, never wrong.
    }
  }

  /**
   * Creates the data file (throws EEXIST when another run just did) and the lock, private to this
   * user, and notes them; on a failure (a full disk), leaves none of them behind. A creation mark
   * naming this process stands while it does: a run killed before it noted the file leaves the
   * mark, which tells the next run the empty file was abandoned.
   */
  create(): void {
    this.removeDeadMarks();
    const mark = `${this.data}.${process.pid}${CREATION_MARK}`;
    closeSync(openSync(mark, O_WRONLY | O_CREAT | O_NOFOLLOW, 0o600));
    try {
      const fd = openSync(this.data, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      try {
        this.writeNote({ identity: identityOf(fstatSync(fd, { bigint: true })), checked: null });
        writeLock(this.lock);
      } catch (error) {
        // An empty data file without its note would look like another run's, settling, to every later run.
        this.remove();
        throw error;
      } finally {
        closeSync(fd);
      }
    } finally {
      rmSync(mark, { force: true });
    }
  }

  /** An empty, unnoted data file: settling while a run creating it lives (or none says it creates it), abandoned once all that did died. */
  private creationState(): StoreState {
    const marks = this.creationMarks();
    if (marks.length === 0 || marks.some(({ pid }) => pid !== process.pid && processIsAlive(pid))) return { kind: 'settling' };
    return { kind: 'abandoned' };
  }

  /** Removes an abandoned store (state() said so) with its mark. */
  removeAbandoned(): void {
    this.removeDeadMarks();
    this.remove();
  }

  private creationMarks(): { path: string; pid: number }[] {
    const dir = dirname(this.data);
    const prefix = `${basename(this.data)}.`;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((name) => name.startsWith(prefix) && name.endsWith(CREATION_MARK))
      .map((name) => ({ path: join(dir, name), pid: Number(name.slice(prefix.length, -CREATION_MARK.length)) }));
  }

  /** Marks of runs that died before they finished creating the store: what they made is abandoned. */
  private removeDeadMarks(): void {
    for (const { path, pid } of this.creationMarks()) if (pid !== process.pid && !processIsAlive(pid)) rmSync(path, { force: true });
  }

  /** Throws the error (EACCES, EROFS, …) that LMDB would meet opening the files to read and write. */
  assertWritable(): void {
    accessSync(this.data, R_OK | W_OK);
    accessSync(this.lock, R_OK | W_OK);
  }

  /** Deletes the store's files: only once state() said they are ours. */
  remove(): void {
    for (const path of [this.data, this.lock, this.note]) rmSync(path, { force: true });
  }

  private readNote(): StoreNote | null {
    const stat = lstatOrNull(this.note);
    if (!stat || !isOwnPlainFile(stat) || stat.size > 1024n) return null;
    try {
      const fd = openSync(this.note, O_RDONLY | O_NOFOLLOW);
      try {
        const note = JSON.parse(readFileSync(fd, 'utf8')) as Partial<StoreNote>;
        return typeof note.identity === 'string' ? { identity: note.identity, checked: typeof note.checked === 'string' ? note.checked : null } : null;
      } finally {
        closeSync(fd);
      }
    } catch {
      return null;
    }
  }

  /** Written aside and renamed over the note, so a reader never sees half of it. */
  private writeNote(note: StoreNote): void {
    const aside = `${this.note}.${process.pid}.tmp`;
    rmSync(aside, { force: true });
    const fd = openSync(aside, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    try {
      try {
        writeSync(fd, JSON.stringify(note));
      } finally {
        closeSync(fd);
      }
      renameSync(aside, this.note);
    } catch (error) {
      rmSync(aside, { force: true });
      throw error;
    }
  }
}

/**
 * LMDB sizes its lock file with ftruncate and writes it through a memory map: on a full disk, the
 * first touch of a page the disk never gave ends the process with SIGBUS. Written whole here, the
 * lock holds its pages before LMDB maps it (LMDB keeps a lock at least as large as it needs; this
 * is the 126 readers lmdb-js asks for, 8,272 bytes, rounded up to whole pages).
 */
const LOCK_BYTES = 12_288;

function writeLock(path: string): void {
  const fd = openSync(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0o600);
  try {
    if (writeSync(fd, new Uint8Array(LOCK_BYTES), 0, LOCK_BYTES, 0) !== LOCK_BYTES) throw new Error(`short write of ${path}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Inode and birth time: a file made anew (a checkout, a copy) has other ones, even where the
 * file system reuses the inode. Without birth times (some file systems), device and inode.
 */
function identityOf(stat: BigIntStats): string {
  return stat.birthtimeNs > 0n ? `${stat.ino}@${stat.birthtimeNs}` : `${stat.dev}:${stat.ino}`;
}

function checkStampOf(stat: BigIntStats): string {
  return `${stat.size}@${stat.ctimeNs}`;
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** This user's, where geteuid exists (not on Windows). */
export function isOwn(stat: { uid: number | bigint }): boolean {
  const uid = process.geteuid?.();
  return uid === undefined || BigInt(stat.uid) === BigInt(uid);
}

/** A plain file of this user's with no other name: writing it writes nothing else. */
function isOwnPlainFile(stat: BigIntStats): boolean {
  return stat.isFile() && isOwn(stat) && stat.nlink === 1n;
}

function fileKind(stat: BigIntStats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (!stat.isFile()) return 'not a plain file';
  if (!isOwn(stat)) return "another user's";
  return 'a hard link to another file';
}
