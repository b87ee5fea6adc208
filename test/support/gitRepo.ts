import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * One scripted commit: files written (content) or deleted (null), then every change of the work
 * tree committed (so a first commit of `{}` commits the files already there), at a fixed date:
 * its hash is the same on every run.
 */
export interface ScriptedCommit {
  files: Record<string, string | null>;
  /** Seconds since the epoch. */
  date: number;
}

/** Runs git in `root` as a fixed author, free of the machine's git configuration. */
export function git(root: string, args: string[], date = 0): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_DATE: `@${date} +0000`,
      GIT_COMMITTER_DATE: `@${date} +0000`,
    },
  });
}

/** `git init` in `root` (existing files untracked until a commit names them), then each commit, in order. */
export function commitHistory(root: string, commits: readonly ScriptedCommit[]): void {
  git(root, ['init', '-q', '-b', 'main']);
  for (const [i, commit] of commits.entries()) addCommit(root, commit, `commit ${i}`);
}

export function addCommit(root: string, commit: ScriptedCommit, message: string): void {
  for (const [path, content] of Object.entries(commit.files)) {
    const file = join(root, path);
    if (content === null) {
      rmSync(file);
    } else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', message], commit.date);
}

/** The full hash of a revision. */
export function revParse(root: string, revision: string): string {
  return git(root, ['rev-parse', revision]).trim();
}
