import { openDerivedIndex } from '../derived/derivedIndex.js';
import { DerivedTables } from '../derived/derivedTables.js';
import { resolveRoot } from '../discover/resolveRoot.js';
import { openStore, syncIndex, type WhileParsing } from '../indexing/indexRepository.js';
import { checkIndexOptions } from '../options/checkOptions.js';
import type { IndexOptions, MapOptions, MapRequest } from '../options/libraryOptions.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { StageTimer } from '../stageTimer.js';
import type { TagStore } from '../store/tagStore.js';
import { composeMap, type RepoMap } from './composeMap.js';
import { resolveMapRequest } from './mapRequest.js';

export type { MapReport, RepoMap } from './composeMap.js';

/**
 * The map of a repository in one call: the index brought up to date, the store read (no source
 * file), the map made, the store closed. To map again and again, openRepoMap keeps it all open.
 */
export async function buildMap(options: MapOptions = {}): Promise<RepoMap> {
  const request = resolveMapRequest(options);
  const timer = options.timer ?? new StageTimer();
  const { index, derived } = await openDerivedIndex({ ...options, timer });
  try {
    return await composeMap(index, derived, request, timer);
  } finally {
    await index.store.close();
  }
}

/**
 * A repository kept open for maps on every request: the store stays open, and what maps read
 * from it stays decoded until a file changes. Each map still checks every file's stamp and
 * re-indexes what changed first.
 */
export async function openRepoMap(options: IndexOptions = {}): Promise<RepoMapper> {
  checkIndexOptions(options);
  const root = resolveRoot(options.root);
  const store = await openStore(root, options);
  return new RepoMapper(root, store, options);
}

export class RepoMapper {
  private readonly tags: DerivedTables;
  private closed = false;
  /** Maps run one at a time: each may re-index, and they share what is decoded. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly root: string,
    private readonly store: TagStore,
    private readonly options: IndexOptions,
  ) {
    this.tags = new DerivedTables(store, root);
  }

  /** Maps asked for before close() still complete. */
  map(request: MapRequest & { timer?: StageTimer } = {}): Promise<RepoMap> {
    return this.enqueue(() => this.mapNow(request));
  }

  /** The ranking tables maps are made from, the index brought up to date first: read them through src/rank/tableLookups.ts. */
  identifierTables(): Promise<IdentifierTables> {
    return this.enqueue(async () => {
      const timer = new StageTimer();
      const index = await syncIndex(this.root, this.store, { ...this.options, timer }, { whileParsing: this.readAhead });
      const tables = await this.tags.identifierTables(
        index.files.map((file) => file.path),
        timer,
      );
      await this.tags.saveComputed();
      return tables;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.store.close();
  }

  private readonly readAhead: WhileParsing = (_, changing, files) => this.tags.readAhead(changing, files);

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('this repository map is closed'));
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  private async mapNow(request: MapRequest & { timer?: StageTimer }): Promise<RepoMap> {
    const resolved = resolveMapRequest({ onWarning: this.options.onWarning, ...request });
    const timer = request.timer ?? new StageTimer();
    const index = await syncIndex(this.root, this.store, { ...this.options, timer }, { whileParsing: this.readAhead });
    return composeMap(index, this.tags, resolved, timer);
  }
}
