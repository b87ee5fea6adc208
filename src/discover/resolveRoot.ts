import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RootError } from '../errors.js';

/**
 * The repository root: the given path (which must be a directory), else the nearest ancestor
 * of the working directory holding `.git`, else the working directory. Always a real path.
 */
export function resolveRoot(given: string | undefined, cwd: string = process.cwd()): string {
  if (given !== undefined) {
    const path = resolve(cwd, given);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      throw new RootError(`root ${given} does not exist`);
    }
    if (!isDirectory) throw new RootError(`root ${given} is not a directory`);
    return realpathSync(path);
  }
  const start = realpathSync(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
