import { resolveRoot } from '../discover/resolveRoot.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

/** How long a watcher's events settle before a refresh: a save, a formatter and a branch switch each come as a burst. */
const DEBOUNCE_MS = 100;

/** `repomap mcp`: serves until the client closes the connection; the roots are checked before anything is served. */
export async function run(args: ArgsFor<'mcp'>): Promise<number> {
  const roots = [...new Set((args.roots ?? [undefined]).map((root) => resolveRoot(root)))];
  const { serveMcp } = await import('../mcp/mcpServer.js');
  const { root: _, ...options } = indexOptionsFrom({ ...args, root: undefined });
  await serveMcp({ ...options, roots, refresh: args.refresh, answerWaitMs: args.answerWaitMs, debounceMs: DEBOUNCE_MS });
  return 0;
}
