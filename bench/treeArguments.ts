import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Arguments for the navigation commands taken from a tree itself, so a run on any repository asks what a user there would. */

const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));

export interface TreeArguments {
  /** The most referenced name the tree's code defines (four letters or more). */
  name: string;
  /** A file defining it. */
  file: string;
  /** `path:line` of a line referencing it. */
  position: string;
  /** The file's folder. */
  folder: string;
}

const TEST_PATH = /(^|\/)(tests?|spec|__tests__|testdata)\/|_test\.|\.test\.|test_/;

export interface Tag {
  rel_fname: string;
  line: number;
  name: string;
  kind: 'def' | 'ref';
}

/** The tree's arguments, from its tags. */
export function treeArguments(dir: string): TreeArguments {
  return argumentsOf(treeTags(dir));
}

/** The tree's tags, from `repomap tags` in a cache folder of their own (removed after). */
export function treeTags(dir: string): Tag[] {
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-tree-arguments-'));
  try {
    const run = spawnSync(process.execPath, [CLI, 'tags', dir, '--cache-dir', cacheDir], { encoding: 'utf8', maxBuffer: 1 << 30 });
    return run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Tag);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

function argumentsOf(tags: readonly Tag[]): TreeArguments {
  const definers = new Map<string, string>();
  // The code's own names: a test helper is referenced most in many trees, and says least.
  for (const tag of tags) if (tag.kind === 'def' && !TEST_PATH.test(tag.rel_fname) && !definers.has(tag.name)) definers.set(tag.name, tag.rel_fname);
  const references = new Map<string, Tag[]>();
  for (const tag of tags) {
    if (tag.kind !== 'ref' || tag.line < 1 || tag.name.length < 4 || !definers.has(tag.name)) continue;
    const list = references.get(tag.name) ?? [];
    list.push(tag);
    references.set(tag.name, list);
  }
  const [name, refs] = [...references].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0] ?? ['main', []];
  const file = definers.get(name) ?? tags[0]?.rel_fname ?? '.';
  const reference = refs[0];
  return { name, file, position: reference ? `${reference.rel_fname}:${reference.line}` : `${file}:1`, folder: dirname(file) };
}
