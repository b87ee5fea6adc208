import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RepoPathError } from '../errors.js';
import type { MissingFiles } from '../options/libraryOptions.js';

/** A repository's files, as the paths a user gives are resolved against them. */
export interface RepoFiles {
  /** The root's real path. */
  root: string;
  /** The folder relative paths are tried against first. */
  cwd: string;
  /** Whether `path` (relative to the root, `/`-separated) is a file the index discovered. */
  has(path: string): boolean;
}

export function repoFiles(root: string, cwd: string, paths: readonly string[]): RepoFiles {
  let known: Set<string> | null = null;
  const has = (path: string) => {
    known ??= new Set(paths);
    return known.has(path);
  };
  return { root, cwd, has };
}

type Resolution = { path: string } | { problem: string };

/**
 * The one rule for a path a user gives (a chat or mentioned file, an anchor's FILE, a command's
 * FILE argument): an absolute path is taken as it is; a relative one is tried against the
 * current folder, then against the root. The first that is a file of the repository (one the
 * index discovered: not ignored, not excluded, a regular file or a symlink to one inside the
 * root) gives its repository path. Otherwise the path names no file of the repository: it does
 * not exist, it resolves outside the root (through `..`, or a symlink whose target is outside),
 * or it is something the repository leaves out; `problem` says which, naming the path as given.
 */
export function resolveUserPath(given: string, files: RepoFiles): Resolution {
  const bases = isAbsolute(given) ? [] : [...new Set([files.cwd, files.root])];
  const candidates = bases.length > 0 ? bases.map((base) => resolve(base, given)) : [resolve(given)];
  let problem: string | null = null;
  for (const candidate of candidates) {
    const found = repoPathAt(candidate, files);
    if (typeof found === 'string') return { path: found };
    problem ??= found.problem;
  }
  if (problem !== null) return { problem: `'${given}' ${problem}` };
  return { problem: `'${given}' does not exist${bases.length > 0 ? ` in ${bases.join(' or ')}` : ''}` };
}

/**
 * A folder of the repository a user named (`--in src`), by resolveUserPath's rule: its
 * repository path ('' for the root) when some file the index discovered lies under it.
 */
export function resolveUserFolder(given: string, files: RepoFiles, holdsFiles: (folder: string) => boolean): Resolution {
  const candidates = isAbsolute(given) ? [resolve(given)] : [...new Set([files.cwd, files.root])].map((base) => resolve(base, given));
  let problem: string | null = null;
  for (const candidate of candidates) {
    let real = candidate;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    const folder = insideRoot(files.root, real);
    if (folder === null) problem ??= `is outside the repository ${files.root}`;
    else if (holdsFiles(folder)) return { path: folder };
    else problem ??= 'holds no file of the repository';
  }
  return { problem: `'${given}' ${problem ?? 'does not exist'}` };
}

/**
 * The repository paths of the files a user named (`label`: "chat file"): one that names no file
 * of the repository is an error, or with `missingFiles: 'warn'` a warning, and left out.
 */
export function resolveUserFiles(
  label: string,
  given: readonly string[] | undefined,
  files: RepoFiles,
  missingFiles: MissingFiles,
  onWarning: ((message: string) => void) | undefined,
): Set<string> {
  const paths = new Set<string>();
  for (const path of given ?? []) {
    const resolved = resolveUserPath(path, files);
    if ('path' in resolved) paths.add(resolved.path);
    else if (missingFiles === 'error') throw new RepoPathError(path, `${label} ${resolved.problem}`);
    else onWarning?.(`${label} ${resolved.problem}; ignored`);
  }
  return paths;
}

/** The repository path of an absolute path, as written or once symlinks are followed; else why not, or null when nothing is there. */
function repoPathAt(absolute: string, files: RepoFiles): string | { problem: string } | { problem: null } {
  const written = insideRoot(files.root, absolute);
  if (written !== null && files.has(written)) return written;
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    return { problem: null };
  }
  const path = insideRoot(files.root, real);
  if (path === null) return { problem: `is outside the repository ${files.root}${real === absolute ? '' : ` (it leads to ${real})`}` };
  if (files.has(path)) return path;
  return { problem: 'is not a file of the repository (ignored, or not a regular file)' };
}

/** `absolute` relative to the root, `/`-separated ('' for the root itself), or null when it is outside. */
function insideRoot(root: string, absolute: string): string | null {
  const path = relative(root, absolute);
  if (path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) return null;
  return sep === '/' ? path : path.split(sep).join('/');
}
