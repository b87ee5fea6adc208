import { createRequire } from 'node:module';
import { relative, sep } from 'node:path';
import { DEFAULT_EXCLUDED_DIRS } from '../discover/discoverFiles.js';

/** A root watched with @parcel/watcher: each batch of events is handed over as root-relative paths. */

export interface RootWatch {
  close(): Promise<void>;
}

/**
 * Watches `root`, leaving out when subscribing `.git`, the cache folder and the default-excluded
 * folders (dependencies, build output) that hold no indexed file: their inotify watches are what
 * makes a watcher slow to start on a monorepo, and no change in them changes the index.
 * Throws when the watch cannot be set up (no backend, the system's watch limit reached).
 */
export async function watchRoot(
  root: string,
  cacheDir: string,
  indexedPaths: readonly string[],
  onChange: (paths: readonly string[]) => void,
  onError: (error: Error) => void,
): Promise<RootWatch> {
  // Loaded only by a server that watches (a native module); required, as the bundled CLI runs where a dynamic import cannot.
  const watcher = createRequire(import.meta.url)('@parcel/watcher') as typeof import('@parcel/watcher');
  const subscription = await watcher.subscribe(
    root,
    (error, events) => {
      if (error) onError(error);
      else if (events.length > 0) onChange(events.map((event) => relative(root, event.path).split(sep).join('/')));
    },
    { ignore: ignoredFolders(root, cacheDir, indexedPaths) },
  );
  return { close: () => subscription.unsubscribe() };
}

/** Each default-excluded folder name as a glob (`.git` among them), unless an indexed file lies in a folder of that name (a committed `vendor/`, say), and the cache folder. */
function ignoredFolders(root: string, cacheDir: string, indexedPaths: readonly string[]): string[] {
  const named = new Set<string>();
  for (const path of indexedPaths) for (const part of path.split('/').slice(0, -1)) if (DEFAULT_EXCLUDED_DIRS.has(part)) named.add(part);
  const ignored = [...DEFAULT_EXCLUDED_DIRS].filter((dir) => !named.has(dir)).map((dir) => `**/${dir}`);
  const cache = relative(root, cacheDir);
  if (cache !== '' && !cache.startsWith('..')) ignored.push(cacheDir);
  return ignored;
}
