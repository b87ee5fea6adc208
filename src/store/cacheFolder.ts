import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, type Stats, writeSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { CacheDirError } from '../errors.js';
import { isOwn } from './storeFiles.js';

/** What repomap puts in a cache folder: its .gitignore, stores of any record version with their lock, note and note being written, parse journals. */
const OWN_NAMES = /^(\.gitignore|indexing\.lock|tags-v\d+\.mdb(-lock|-id|-id\.\d+\.tmp|\.\d+\.creating)?|parsing-\d+-\d+)$/;

/**
 * Makes `cacheDir` ready to hold the tag store of `root`, or says why it cannot be trusted with
 * it (a symbolic link, no folder, another user's): the run then keeps its tags in memory. A
 * folder that does not exist is created private (0700) with a .gitignore of `*`; one that exists
 * gets nothing but the store, and loses the write permission of others. Throws a CacheDirError
 * for a folder that must never be used: the root, an ancestor of it, or one holding files
 * repomap did not make.
 */
export function claimCacheFolder(root: string, cacheDir: string): string | null {
  try {
    return claim(root, resolve(cacheDir), cacheDir);
  } catch (error) {
    if (error instanceof CacheDirError) throw error;
    return `cannot use cache dir ${cacheDir} (${error instanceof Error ? error.message : String(error)})`;
  }
}

function claim(root: string, path: string, cacheDir: string): string | null {
  const stat = lstatOrNull(path);
  // Another run may create it first: then it is a folder found, not made.
  if (!stat && createFolder(path, cacheDir)) return null;
  const found = stat ?? lstatSync(path);
  if (found.isSymbolicLink()) return `cache dir ${cacheDir} is a symbolic link`;
  if (!found.isDirectory()) return `cannot use cache dir ${cacheDir} (not a directory)`;
  const real = realpathSync(path);
  if (real === root) throw new CacheDirError(`cache dir ${cacheDir} is the repository root`);
  if (root.startsWith(real.endsWith(sep) ? real : real + sep)) throw new CacheDirError(`cache dir ${cacheDir} holds the repository ${root}`);
  const names = readdirSync(path);
  const others = names.filter((name) => !OWN_NAMES.test(name));
  if (others.length > 0) {
    const named = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
    throw new CacheDirError(`cache dir ${cacheDir} holds files repomap did not make (${named}); give it an empty or new folder`);
  }
  if (!isOwn(found)) return `cache dir ${cacheDir} belongs to another user`;
  // All repomap keeps here is plain files of its user's: through a link (a committed journal,
  // lock or store), a run would read, write or delete what is not its own.
  for (const name of names) {
    // Gone since the listing: another run's note or lock renamed or removed in between, nothing to judge.
    const entry = lstatSync(join(path, name), { throwIfNoEntry: false });
    if (!entry) continue;
    if (!entry.isFile() || !isOwn(entry) || entry.nlink !== 1) return `cache dir ${cacheDir} holds ${name}, which is not a plain file of this user's`;
  }
  // Others who may add files could slip a link in after the checks (umask 002 made such folders).
  if (found.mode & 0o022) {
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | (constants.O_NOFOLLOW ?? 0));
    try {
      fchmodSync(fd, found.mode & 0o755);
    } finally {
      closeSync(fd);
    }
  }
  return null;
}

/**
 * Creates the folder with its .gitignore; false when another run created it first. Only the
 * folder itself: a missing parent is a mistyped path more often than a wish, and repomap
 * writes nothing outside its cache folder.
 */
function createFolder(path: string, cacheDir: string): boolean {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Under /proc a folder that exists refuses new entries with ENOENT too.
    if (code === 'ENOENT' && !lstatOrNull(dirname(path))) throw new CacheDirError(`cache dir ${cacheDir} cannot be made: ${dirname(path)} does not exist`);
    throw error;
  }
  const fd = openSync(join(path, '.gitignore'), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, '# Created by repomap\n*\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
