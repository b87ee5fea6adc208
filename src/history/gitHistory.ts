/**
 * The recent history of a repository as the git signals read it: which files each commit
 * changed, newest first. Commits that change no file under the root (merges, changes elsewhere
 * in a larger work tree) and commits too large to say anything about one file are left out.
 */
export interface GitHistory {
  /** The commit the history ends at: it stays valid while HEAD is there. */
  head: string;
  /** The paths the commits changed, relative to the root, `/`-separated. */
  paths: string[];
  /** Per commit, newest first: the indices into `paths` of the files it changed. */
  commits: number[][];
}

/** What the cache holds: the history and what it was read with, so a change of either reads it again. */
interface StoredHistory extends GitHistory {
  format: string;
}

/** Bumped when what a stored history means changes (the reading's limits, its layout). */
const HISTORY_FORMAT = 'git-history-1';

/** What tells one history from another: the store keeps one per commit and format (see decodeGitHistory), the counts aside. */
export function gitHistoryId(history: GitHistory): string {
  return `${HISTORY_FORMAT}:${history.head}:${history.commits.length}:${history.paths.length}`;
}

export function encodeGitHistory(history: GitHistory): Uint8Array {
  const stored: StoredHistory = { format: HISTORY_FORMAT, ...history };
  return new TextEncoder().encode(JSON.stringify(stored));
}

/** The history in `bytes` when it was read at `head` in this format; undefined otherwise (or when the bytes are damaged). */
export function decodeGitHistory(bytes: Uint8Array, head: string): GitHistory | undefined {
  let stored: StoredHistory;
  try {
    stored = JSON.parse(new TextDecoder().decode(bytes)) as StoredHistory;
  } catch {
    return undefined;
  }
  if (stored?.format !== HISTORY_FORMAT || stored.head !== head || !Array.isArray(stored.paths) || !Array.isArray(stored.commits)) return undefined;
  return { head: stored.head, paths: stored.paths, commits: stored.commits };
}
