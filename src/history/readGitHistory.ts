import { type GitPlace, gitWorkTree, runGit } from '../git/runGit.js';
import type { GitHistory } from './gitHistory.js';

/**
 * Reads a repository's recent history with git's own commands, run as src/git/runGit.ts runs
 * them for an untrusted repository. A missing git, a folder that is no git work tree, an empty
 * history or any failure is no history (null), never an error.
 */

/** Where the history comes from: the work tree holding the root, or a git directory at a commit (the quality harness's mirrors). */
export type HistorySource = { root: string } | { gitDir: string; commit: string };

/** The newest commits read: at a half-life of 200 commits (historySignals.ts), the oldest weigh 3%. */
const MAX_COMMITS = 1000;
/**
 * A commit changing more files says little about any of them (a reformat, a folder renamed, a
 * vendored update); 20, 50 and 100 measure alike on the issue sets.
 */
const LARGE_COMMIT_FILES = 50;

const COMMIT_MARK = '\x1e';

/** The commit the history would end at: HEAD's for a work tree; null when there is none. */
export async function historyHead(source: HistorySource): Promise<string | null> {
  // A commit given as `--something` would be read as an option.
  if ('commit' in source && source.commit.startsWith('-')) return null;
  const revision = 'root' in source ? 'HEAD' : `${source.commit}^{commit}`;
  const out = await git(source, ['rev-parse', '--verify', '--quiet', revision]);
  const head = out?.trim() ?? '';
  return /^[0-9a-f]{40,64}$/.test(head) ? head : null;
}

/** The history ending at `head` (from historyHead), or null when git cannot give it. */
export async function readGitHistory(source: HistorySource, head: string): Promise<GitHistory | null> {
  const out = await git(source, [
    'log',
    '-z',
    '--name-only',
    '--format=%x1e',
    `--max-count=${MAX_COMMITS}`,
    '--no-merges',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--no-show-signature',
    // In a work tree, the paths under the root, relative to it (the root may be a folder of a larger work tree).
    ...('root' in source ? ['--relative'] : []),
    head,
    '--',
  ]);
  return out === null ? null : parseLog(out, head);
}

/** `git log -z --name-only --format=<mark>`: per commit, the mark, a NUL, a newline, then each path NUL-terminated. */
function parseLog(out: string, head: string): GitHistory {
  const paths: string[] = [];
  const indexOf = new Map<string, number>();
  const commits: number[][] = [];
  for (const chunk of out.split(COMMIT_MARK)) {
    const files = chunk
      .split('\0')
      .map((entry) => (entry.startsWith('\n') ? entry.slice(1) : entry))
      .filter((entry) => entry !== '');
    if (files.length === 0 || files.length > LARGE_COMMIT_FILES) continue;
    commits.push(
      files.map((path) => {
        let index = indexOf.get(path);
        if (index === undefined) {
          index = paths.length;
          paths.push(path);
          indexOf.set(path, index);
        }
        return index;
      }),
    );
  }
  return { head, paths, commits };
}

/** Where git runs for `source`: null for a root in no work tree. */
function placeOf(source: HistorySource): GitPlace | null {
  if (!('root' in source)) return { gitDir: source.gitDir };
  const workTree = gitWorkTree(source.root);
  return workTree === null ? null : { root: source.root, workTree };
}

async function git(source: HistorySource, args: readonly string[]): Promise<string | null> {
  const place = placeOf(source);
  const out = place && (await runGit(place, args));
  return out ? out.toString('utf8') : null;
}
