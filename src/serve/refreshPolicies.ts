/**
 * When a server brings a root's index up to date: `auto`, when a watcher reports a change
 * (debounced, in the background); `always`, before every call (every file's stamp checked);
 * `files`, before a call whose named files changed; `manual`, only when asked (`refresh`).
 * Import-free: the CLI's command table reads it on every run.
 */
export const REFRESH_POLICIES = ['auto', 'always', 'files', 'manual'] as const;
export type RefreshPolicy = (typeof REFRESH_POLICIES)[number];
