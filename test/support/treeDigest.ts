import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every entry under `dir` (not following symlinks) as `path type mode owner content-hash`, so
 * that comparing two digests shows any file written, deleted, created, re-linked or chowned.
 */
export function treeDigest(dir: string, skip: (relativePath: string) => boolean = () => false): string[] {
  const lines: string[] = [];
  const walk = (relative: string) => {
    const path = join(dir, relative);
    const stat = lstatSync(path);
    const head = `${relative || '.'} ${(stat.mode & 0o777).toString(8)} ${stat.uid}`;
    if (stat.isSymbolicLink()) lines.push(`${head} link ${readlinkSync(path)}`);
    else if (stat.isFile()) lines.push(`${head} file ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    else if (stat.isDirectory()) {
      lines.push(`${head} dir`);
      for (const name of readdirSync(path).sort()) {
        const child = relative ? `${relative}/${name}` : name;
        if (!skip(child)) walk(child);
      }
    } else lines.push(`${head} other`);
  };
  walk('');
  return lines;
}
