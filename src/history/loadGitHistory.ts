import type { TagStore } from '../store/tagStore.js';
import { decodeGitHistory, encodeGitHistory, type GitHistory } from './gitHistory.js';
import { type HistorySource, historyHead, readGitHistory } from './readGitHistory.js';

/**
 * The history the git signals read, from the store while HEAD (or the source's commit) has not
 * moved: a warm map asks git only where HEAD is (one `git rev-parse`), and reads the log again
 * only after a commit, a checkout or a reset. Null when git gives no history. Never throws: a
 * map may start it and await it later.
 */
export async function loadGitHistory(store: TagStore, source: HistorySource): Promise<GitHistory | null> {
  const head = await historyHead(source);
  if (head === null) return null;
  const stored = store.gitHistory();
  const cached = stored ? decodeGitHistory(stored, head) : undefined;
  if (cached) return cached;
  const history = await readGitHistory(source, head);
  try {
    if (history) await store.saveGitHistory(encodeGitHistory(history));
  } catch {
    // A store that takes no write (full, read-only) costs the next map a `git log`, nothing more.
  }
  return history;
}
