import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import type { RootSession } from '../serve/rootSession.js';

/** The roots a server serves, and which one a call means. */
export class ServedRoots {
  constructor(readonly sessions: readonly RootSession[]) {}

  /**
   * The session a call reads: the root it names (its path, or its folder name when that is
   * unique), else the root its absolute paths lie in, else the only one. A path outside every
   * root, or no way to choose, is an error that lists the roots.
   */
  pick(root: string | undefined, paths: readonly string[] = []): RootSession {
    if (root !== undefined) {
      const exact = this.sessions.find((session) => session.root === resolve(root));
      if (exact) return exact;
      const named = this.sessions.filter((session) => basename(session.root) === root);
      if (named.length === 1) return named[0]!;
      throw new UsageError(`${root} is not a root this server serves (${this.list()})`);
    }
    for (const path of paths) {
      if (!isAbsolute(path)) continue;
      const holding = this.sessions.find((session) => inside(session.root, path));
      if (!holding) throw new UsageError(`${path} lies outside every root this server serves (${this.list()})`);
      return holding;
    }
    if (this.sessions.length === 1) return this.sessions[0]!;
    throw new UsageError(`this server serves several roots (${this.list()}): name one with root`);
  }

  private list(): string {
    return this.sessions.map((session) => session.root).join(', ');
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, resolve(path));
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
