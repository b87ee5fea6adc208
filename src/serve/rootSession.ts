import { lstatSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DerivedTables } from '../derived/derivedTables.js';
import { IndexBusyError, NoMapError } from '../errors.js';
import { cacheDirOf, type OpenIndex, openStore, syncIndex, type WhileParsing } from '../indexing/indexRepository.js';
import { composeMap, type RepoMap } from '../map/composeMap.js';
import { resolveMapRequest } from '../map/mapRequest.js';
import { ParsedFiles } from '../navigate/atSyntax.js';
import { type RepoView, viewOf } from '../navigate/repoView.js';
import type { IndexOptions, MapRequest } from '../options/libraryOptions.js';
import { StageTimer } from '../stageTimer.js';
import type { TagStore } from '../store/tagStore.js';
import type { RefreshPolicy } from './refreshPolicies.js';
import { type RootWatch, watchRoot } from './watchRoot.js';

/**
 * One repository a server keeps open between calls: its store, its derived tables and its index
 * as last brought up to date. Calls and refreshes run one at a time, in order; a call waits for a
 * refresh at most `answerWaitMs`, then is answered that the index is being brought up to date.
 */

/** Where an answer came from: which store generation, when it was last brought up to date, and what may be newer. */
export interface IndexState {
  root: string;
  /** The store's generation the answer was read at: it moves with every change committed to the store. */
  generation: number;
  /** When the index was last brought up to date (ISO 8601), null before the first time. */
  refreshedAt: string | null;
  /** Paths the watcher reported changed that no refresh has taken in yet; null when nothing watches (see `refresh`). */
  pendingChanges: number | null;
  /** The refresh policy in force (`auto` falls back to `always` when the root cannot be watched). */
  refresh: RefreshPolicy;
}

export interface SessionStatus extends IndexState {
  files: number;
  /** Indexed files per language (files of no supported language under `other`). */
  languages: Record<string, number>;
  /** A refresh running now: since when (ISO 8601). */
  refreshingSince: string | null;
  /** The files the running refresh has parsed, of those it parses; null when none runs or it parses nothing. */
  parsing: { done: number; total: number } | null;
  /** Why the last refresh failed, until one succeeds. */
  lastFailure: string | null;
  /** Why the root is not watched, when `auto` could not watch it. */
  watchError: string | null;
}

export interface SessionOptions extends IndexOptions {
  refresh: RefreshPolicy;
  /** The longest a call waits for a refresh before it is answered that the index is busy. */
  answerWaitMs: number;
  /** How long the watcher's events settle before a refresh starts. */
  debounceMs: number;
  /** The map a refresh makes ahead, so that the front end's default map is served warm after a change. */
  warmMap: MapRequest;
}

/** Changed paths a session keeps by name until its next refresh; more are only counted. */
const MAX_PENDING_PATHS = 100_000;
/** The longest the watcher's events postpone a refresh, however often they come. */
const MAX_DEBOUNCE_MS = 1000;
/** Maps kept per session, by request and generation. */
const KEPT_MAPS = 16;
/** Source a session keeps parsed for `at` (the trees take a few times as much native memory): a file being read is asked about again and again. */
const PARSED_SOURCE_BYTES = 4 * 1024 * 1024;

export class RootSession {
  private readonly tags: DerivedTables;
  private index: OpenIndex | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private refreshedAt: Date | null = null;
  private refreshingSince: Date | null = null;
  private parsing: { done: number; total: number } | null = null;
  private readonly pending = new Set<string>();
  /** Changes reported past MAX_PENDING_PATHS: counted, not kept (a build writing a million files must not fill the memory). */
  private pendingBeyond = 0;
  private watch: RootWatch | null = null;
  private watchError: string | null = null;
  private policy: RefreshPolicy;
  private debounce: NodeJS.Timeout | null = null;
  private debouncedSince = 0;
  private closed = false;
  /** Why the last refresh failed, until one succeeds: a call with no index to read says it. */
  private failure: string | null = null;
  private readonly maps = new Map<string, RepoMap>();
  private pathIndex: Map<string, number> | null = null;
  /** The parses `at` keeps between calls, each checked against the file's text before reuse. */
  readonly parsedFiles = new ParsedFiles(PARSED_SOURCE_BYTES);

  private constructor(
    readonly root: string,
    private readonly store: TagStore,
    private readonly options: SessionOptions,
  ) {
    this.tags = new DerivedTables(store, root);
    this.policy = options.refresh;
  }

  /** Opens the root's store and starts bringing its index up to date in the background (then watching it, under `auto`). */
  static async open(root: string, options: SessionOptions): Promise<RootSession> {
    const session = new RootSession(root, await openStore(root, options), options);
    session
      .enqueue(async () => {
        try {
          await session.refreshNow(true);
        } finally {
          // Watched even when the first refresh failed: the next call's refresh may succeed, and must not go stale after it.
          if (session.policy === 'auto') await session.startWatching();
        }
      })
      .catch(() => {});
    return session;
  }

  /** Runs `use` on a view of the index, brought up to date first as the policy asks; `named` are the files the call names (user paths). */
  read<T>(named: readonly string[], use: (view: RepoView, index: OpenIndex, generation: number) => Promise<T> | T): Promise<{ value: T; state: IndexState }> {
    return this.withinWait(async () => {
      await this.freshenFor(named);
      const index = this.current();
      const timer = new StageTimer();
      const value = await use(viewOf(index, this.tags, { ...this.options, cwd: this.root, timer }, timer), index, this.store.generation());
      await this.tags.saveComputed();
      return { value, state: this.state() };
    });
  }

  /** The map of the index as `read` finds it: kept by request and generation, so a repeated call is not ranked again. */
  map(request: MapRequest): Promise<{ value: RepoMap; state: IndexState }> {
    const named = [...(request.chatFiles ?? []), ...(request.mentionedFiles ?? []), ...(request.scopes ?? [])];
    return this.read(named, async (_, index) => {
      const key = `${this.store.generation()}\0${JSON.stringify(request)}`;
      const kept = this.maps.get(key);
      if (kept) return kept;
      const map = await composeMap(index, this.tags, resolveMapRequest({ ...request, cwd: this.root }), new StageTimer());
      if (this.maps.size >= KEPT_MAPS) this.maps.delete(this.maps.keys().next().value!);
      this.maps.set(key, map);
      return map;
    });
  }

  /** Brings the index up to date now, whatever the policy. */
  refresh(): Promise<{ value: { changed: boolean }; state: IndexState }> {
    return this.withinWait(async () => {
      const before = this.store.generation();
      await this.refreshNow(true);
      return { value: { changed: this.store.generation() !== before }, state: this.state() };
    });
  }

  status(): SessionStatus {
    const languages: Record<string, number> = {};
    for (const file of this.index?.files ?? []) {
      const language = file.language ?? 'other';
      languages[language] = (languages[language] ?? 0) + 1;
    }
    return {
      ...this.state(),
      files: this.index?.files.length ?? 0,
      languages,
      refreshingSince: this.refreshingSince?.toISOString() ?? null,
      parsing: this.parsing && { ...this.parsing },
      lastFailure: this.failure,
      watchError: this.watchError,
    };
  }

  /** Stops watching and closes the store, unless a refresh is running: the process ends then, and the store keeps what it committed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.debounce) clearTimeout(this.debounce);
    await this.watch?.close().catch(() => {});
    if (this.refreshingSince === null) await this.store.close();
  }

  private state(): IndexState {
    return {
      root: this.root,
      generation: this.store.generation(),
      refreshedAt: this.refreshedAt?.toISOString() ?? null,
      pendingChanges: this.watch ? this.pending.size + this.pendingBeyond : null,
      refresh: this.policy,
    };
  }

  private current(): OpenIndex {
    if (this.index === null) throw new IndexBusyError(`${this.root} has not been indexed yet${this.failure ? `: ${this.failure}` : ''}`);
    return this.index;
  }

  /** What the policy asks before a call: under `always` a refresh; under `files` one when a named file's stamp moved. */
  private async freshenFor(named: readonly string[]): Promise<void> {
    if (this.index === null || this.policy === 'always' || (this.policy === 'files' && this.namedFilesMoved(named))) await this.refreshNow(false);
  }

  /** Whether a named file was added, removed or changed since the last refresh (its stamp against the one discovery gave it). */
  private namedFilesMoved(named: readonly string[]): boolean {
    const index = this.current();
    this.pathIndex ??= new Map(index.files.map((file, i) => [file.path, i]));
    for (const given of named) {
      const absolute = resolve(this.root, given);
      const path = relative(this.root, absolute).split(sep).join('/');
      if (path.startsWith('..') || isAbsolute(path)) continue;
      const at = this.pathIndex.get(path);
      const stat = lstatSync(absolute, { throwIfNoEntry: false });
      if (at === undefined) {
        if (stat?.isFile()) return true;
        continue;
      }
      const file = index.files[at]!;
      if (!stat || stat.mtimeMs !== file.mtimeMs || stat.size !== file.size || stat.ctimeMs !== file.ctimeMs || stat.ino !== file.ino) return true;
    }
    return false;
  }

  /** Discovers the files and re-indexes what changed; `warm` also derives what a default map reads, as an index run leaves it. */
  private async refreshNow(warm: boolean): Promise<void> {
    const taken = [...this.pending];
    const takenBeyond = this.pendingBeyond;
    this.pending.clear();
    this.pendingBeyond = 0;
    this.refreshingSince = new Date();
    try {
      const before = this.store.generation();
      const whileParsing: WhileParsing = (_, changing, files) => this.tags.readAhead(changing, files);
      const onParseStart = (total: number) => (this.parsing = { done: 0, total });
      const onProgress = (done: number, total: number) => (this.parsing = { done, total });
      this.index = await syncIndex(this.root, this.store, { ...this.options, timer: undefined, onParseStart, onProgress }, { whileParsing });
      this.pathIndex = null;
      if (this.store.generation() !== before) this.maps.clear();
      if (warm && this.index.files.length > 0) await this.warm(this.index);
      this.refreshedAt = new Date();
      this.failure = null;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      // What the failed refresh took in is still to be taken in.
      for (const path of taken) this.pending.add(path);
      this.pendingBeyond += takenBeyond;
      throw error;
    } finally {
      this.refreshingSince = null;
      this.parsing = null;
    }
  }

  /** The default map made and dropped, and the lexical tables: what a call reads next, derived while no call waits for it. */
  private async warm(index: OpenIndex): Promise<void> {
    const timer = new StageTimer();
    await composeMap(index, this.tags, resolveMapRequest({ ...this.options.warmMap, cwd: this.root }), timer).catch((error: unknown) => {
      if (!(error instanceof NoMapError)) throw error;
    });
    await this.tags.lexicalTables(
      index.files.map((file) => file.path),
      timer,
    );
    await this.tags.saveComputed();
  }

  private async startWatching(): Promise<void> {
    if (this.closed) return;
    const indexed = this.index?.files.map((file) => file.path) ?? [];
    try {
      this.watch = await watchRoot(
        this.root,
        cacheDirOf(this.root, this.options),
        indexed,
        (paths) => this.changed(paths),
        (error) => this.unwatch(error),
      );
    } catch (error) {
      this.unwatch(error);
      return;
    }
    // What changed between the first refresh and the watch's start.
    await this.refreshNow(false);
  }

  private changed(paths: readonly string[]): void {
    for (const path of paths) {
      if (this.pending.size < MAX_PENDING_PATHS || this.pending.has(path)) this.pending.add(path);
      else this.pendingBeyond++;
    }
    // Events that never pause (a build writing where nothing is ignored) postpone the refresh a second at most.
    if (this.debounce && Date.now() - this.debouncedSince < MAX_DEBOUNCE_MS) clearTimeout(this.debounce);
    else if (this.debounce) return;
    else this.debouncedSince = Date.now();
    this.debounce = setTimeout(() => {
      this.debounce = null;
      if (this.pending.size + this.pendingBeyond > 0 && !this.closed) this.enqueue(() => this.refreshNow(true)).catch(() => {});
    }, this.options.debounceMs);
  }

  /** A watch that failed or could not start: every call checks the stamps instead, and the status says why. */
  private unwatch(error: unknown): void {
    this.watchError = error instanceof Error ? error.message : String(error);
    this.policy = 'always';
    const watch = this.watch;
    this.watch = null;
    void watch?.close().catch(() => {});
  }

  /** Queued work, raced against the wait a call may take: past it the call is answered busy, and its work is skipped when its turn comes. */
  private withinWait<T>(work: () => Promise<T>): Promise<T> {
    let abandoned = false;
    const queued = this.enqueue(async () => {
      if (abandoned) throw new IndexBusyError('abandoned');
      return work();
    });
    let timeout: NodeJS.Timeout | undefined;
    const busy = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => {
        abandoned = true;
        reject(new IndexBusyError(this.busyMessage()));
      }, this.options.answerWaitMs);
    });
    queued.catch(() => {});
    return Promise.race([queued, busy]).finally(() => clearTimeout(timeout));
  }

  private busyMessage(): string {
    const since = this.refreshingSince;
    const parsed = this.parsing ? `, ${this.parsing.done} of ${this.parsing.total} files parsed` : '';
    const running = since ? ` (a refresh has been running for ${((Date.now() - since.getTime()) / 1000).toFixed(1)} s${parsed})` : '';
    const what = this.index === null ? 'is being indexed for the first time' : 'is being brought up to date';
    return `${this.root} ${what}${running}; ask again in a few seconds`;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('this session is closed'));
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }
}
