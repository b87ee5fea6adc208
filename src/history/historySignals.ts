import type { GitHistory } from './gitHistory.js';

/**
 * What the history says about each file of the repository, per file id (the order of `paths`):
 * how recently and how often it changed, and how often it changed together with the chat files.
 * A commit's worth halves every HALF_LIFE_COMMITS commits back from the newest.
 */

/** Chosen on the issue sets (bench/BASELINE.md, the git signals): 100 to 300 measure alike, 30 and 1000 a little worse. */
const HALF_LIFE_COMMITS = 200;

/** Per file, Σ over the commits changing it of 2^(−age / HALF_LIFE_COMMITS), age counted in commits from the newest (0). */
export function recencyScores(history: GitHistory, paths: readonly string[]): Float64Array {
  const fileOf = fileIds(history, paths);
  const scores = new Float64Array(paths.length);
  history.commits.forEach((files, age) => {
    const worth = commitWorth(age);
    for (const index of files) {
      const file = fileOf[index]!;
      if (file >= 0) scores[file]! += worth;
    }
  });
  return scores;
}

/**
 * Per file, Σ over the commits changing it and a chat file of the commit's worth (as in
 * recencyScores) / (the other files it changed): a small commit that touched both says more
 * than a large one. Chat files score 0.
 */
export function coChangeScores(history: GitHistory, paths: readonly string[], isChat: Uint8Array): Float64Array {
  const fileOf = fileIds(history, paths);
  const scores = new Float64Array(paths.length);
  history.commits.forEach((files, age) => {
    if (files.length < 2 || !files.some((index) => fileOf[index]! >= 0 && isChat[fileOf[index]!] === 1)) return;
    const worth = commitWorth(age) / (files.length - 1);
    for (const index of files) {
      const file = fileOf[index]!;
      if (file >= 0 && isChat[file] !== 1) scores[file]! += worth;
    }
  });
  return scores;
}

function commitWorth(age: number): number {
  return 2 ** (-age / HALF_LIFE_COMMITS);
}

/** Per path of the history, its file id among `paths`, −1 for a file no longer there. */
function fileIds(history: GitHistory, paths: readonly string[]): Int32Array {
  const idOf = new Map(paths.map((path, file) => [path, file]));
  return Int32Array.from(history.paths, (path) => idOf.get(path) ?? -1);
}
