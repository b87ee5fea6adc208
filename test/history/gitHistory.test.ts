import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeGitHistory, encodeGitHistory, type GitHistory } from '../../dist/src/history/gitHistory.js';
import { coChangeScores, recencyScores } from '../../dist/src/history/historySignals.js';
import { loadGitHistory } from '../../dist/src/history/loadGitHistory.js';
import { historyHead, readGitHistory } from '../../dist/src/history/readGitHistory.js';
import { openTagStore } from '../../dist/src/store/tagStore.js';
import { addCommit, commitHistory, git, revParse } from '../support/gitRepo.js';

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), `repomap-history-${prefix}-`));

/**
 * A history with what the reading must leave out: a commit of 60 files (a reformat), a merge
 * commit, a deleted file; and a folder whose own history is one commit.
 */
function scriptedRepo(): string {
  const root = temp('repo');
  const generated = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`gen/f${i}.py`, `x = ${i}\n`]));
  commitHistory(root, [
    { date: 1000, files: { 'a.py': 'a = 1\n', 'b.py': 'b = 1\n', 'c.py': 'c = 1\n' } },
    { date: 2000, files: { 'a.py': 'a = 2\n', 'b.py': 'b = 2\n' } },
    { date: 3000, files: generated },
    { date: 4000, files: { 'c.py': null, 'sub/d.py': 'd = 1\n' } },
    { date: 5000, files: { 'a.py': 'a = 3\n' } },
  ]);
  git(root, ['checkout', '-q', '-b', 'side']);
  addCommit(root, { date: 6000, files: { 'b.py': 'b = 3\n' } }, 'on a side branch');
  git(root, ['checkout', '-q', 'main']);
  addCommit(root, { date: 7000, files: { 'e.py': 'e = 1\n' } }, 'on main');
  git(root, ['merge', '-q', '--no-ff', '-m', 'merge', 'side'], 8000);
  return root;
}

describe('reading the history with git', () => {
  const root = scriptedRepo();

  test('newest first, each commit its changed files: merges, commits of more than 50 files and nothing else left out', async () => {
    const head = await historyHead({ root });
    expect(head).toBe(revParse(root, 'HEAD'));
    expect(await readGitHistory({ root }, head!)).toEqual({
      head,
      paths: ['e.py', 'b.py', 'a.py', 'c.py', 'sub/d.py'],
      commits: [[0], [1], [2], [3, 4], [2, 1], [2, 1, 3]],
    });
  });

  test('from a folder of the work tree: its files only, relative to it', async () => {
    const sub = join(root, 'sub');
    const head = await historyHead({ root: sub });
    expect(await readGitHistory({ root: sub }, head!)).toEqual({ head, paths: ['d.py'], commits: [[0]] });
  });

  test('from a git directory at a commit: only that commit and the ones before it', async () => {
    const second = revParse(root, 'main~4');
    const source = { gitDir: join(root, '.git'), commit: second };
    expect(await historyHead(source)).toBe(second);
    expect(await readGitHistory(source, second)).toEqual({
      head: second,
      paths: ['a.py', 'b.py', 'c.py'],
      commits: [
        [0, 1],
        [0, 1, 2],
      ],
    });
  });

  test('no work tree, no commit yet, or no such commit: no history', async () => {
    expect(await historyHead({ root: temp('plain') })).toBeNull();
    const empty = temp('empty');
    git(empty, ['init', '-q']);
    expect(await historyHead({ root: empty })).toBeNull();
    expect(await historyHead({ gitDir: join(root, '.git'), commit: 'f'.repeat(40) })).toBeNull();
    expect(await historyHead({ gitDir: join(root, '.git'), commit: '--output=/tmp/x' })).toBeNull();
  });
});

describe('the signals of a history', () => {
  // Newest first: a alone; a and b; b, c and a file since deleted. The repository's files: a, b, c, d.
  const history: GitHistory = { head: 'h', paths: ['a', 'b', 'c', 'gone'], commits: [[0], [0, 1], [1, 2, 3]] };
  const paths = ['a', 'b', 'c', 'd'];

  test('recency: per commit changing the file, 2^(−age / 200)', () => {
    const scores = Array.from(recencyScores(history, paths));
    // a: 1 + 2^(−1/200); b: 2^(−1/200) + 2^(−2/200); c: 2^(−2/200).
    expect(scores.map((score) => score.toFixed(8))).toEqual(['1.99654026', '1.98963276', '0.99309250', '0.00000000']);
  });

  test('co-change: per commit with a chat file, its worth shared among the other files it changed', () => {
    const withA = coChangeScores(history, paths, Uint8Array.from([1, 0, 0, 0]));
    // The commit of a alone changed nothing with it; b: 2^(−1/200) / 1.
    expect(Array.from(withA, (score) => score.toFixed(8))).toEqual(['0.00000000', '0.99654026', '0.00000000', '0.00000000']);
    const withC = coChangeScores(history, paths, Uint8Array.from([0, 0, 1, 0]));
    // b: 2^(−2/200) / 2 (the deleted file counts in the commit's size).
    expect(Array.from(withC, (score) => score.toFixed(8))).toEqual(['0.00000000', '0.49654625', '0.00000000', '0.00000000']);
  });
});

describe('the history in the store', () => {
  test('a stored history holds for its commit only', () => {
    const history: GitHistory = { head: 'a'.repeat(40), paths: ['x.py'], commits: [[0]] };
    const bytes = encodeGitHistory(history);
    expect(decodeGitHistory(bytes, 'a'.repeat(40))).toEqual(history);
    expect(decodeGitHistory(bytes, 'b'.repeat(40))).toBeUndefined();
    expect(decodeGitHistory(new TextEncoder().encode('{"format":'), 'a'.repeat(40))).toBeUndefined();
  });

  const cacheDirs = {
    lmdb: () => temp('cache'),
    memory: () => {
      const notADirectory = join(temp('cache'), 'file');
      writeFileSync(notADirectory, '');
      return notADirectory;
    },
  };

  test.each(Object.keys(cacheDirs) as (keyof typeof cacheDirs)[])('read once per HEAD, from the %s store after that', async (kind) => {
    const root = temp('cached');
    commitHistory(root, [{ date: 1000, files: { 'a.py': 'a = 1\n' } }]);
    const warnings: string[] = [];
    const store = await openTagStore(root, cacheDirs[kind](), (warning) => warnings.push(warning));
    expect(warnings.length > 0).toBe(kind === 'memory');
    try {
      const head = revParse(root, 'HEAD');
      expect(await loadGitHistory(store, { root })).toEqual({ head, paths: ['a.py'], commits: [[0]] });
      // What the store holds is what the next map reads: git's log is not asked again.
      const planted: GitHistory = { head, paths: ['planted.py'], commits: [[0]] };
      await store.saveGitHistory(encodeGitHistory(planted));
      expect(await loadGitHistory(store, { root })).toEqual(planted);
      // A commit moves HEAD: the history is read again.
      addCommit(root, { date: 2000, files: { 'b.py': 'b = 1\n' } }, 'b');
      const moved = revParse(root, 'HEAD');
      expect(await loadGitHistory(store, { root })).toEqual({ head: moved, paths: ['b.py', 'a.py'], commits: [[0], [1]] });
      expect(decodeGitHistory(store.gitHistory()!, moved)?.paths).toEqual(['b.py', 'a.py']);
    } finally {
      await store.close();
    }
  });
});
