import { type CountTokens, RenderedTokenCounter } from '../pack/tokenCount.js';
import { buildIdentifierTables, type FileTags, type IdentifierTables } from '../rank/identifierTables.js';
import { filePaths } from '../rank/tableLookups.js';
import { decodeIdentifierTables, encodeIdentifierTables } from '../rank/tablesCodec.js';
import type { RenderPart } from '../record/fileRecord.js';
import type { StageTimer } from '../stageTimer.js';
import type { TagStore } from '../store/tagStore.js';

const NO_REFERENCES = { names: [], counts: [] };

/** A line no count is stored for, met before the tokenizer was loaded (see StoredTags.countTokens). */
export class TokenizerNeeded extends Error {}

/**
 * What maps read from the store, decoded once and kept while the store's generation holds: the
 * identifier tables (stored whole, built from every record only after a change), the render
 * parts of the records a rendering shows, and the token counts of rendered lines.
 */
export class StoredTags {
  private generation = -1;
  private tables: IdentifierTables | null = null;
  private readonly renderParts = new Map<string, RenderPart | undefined>();
  private readonly counter = new RenderedTokenCounter((line) => this.lineTokens(line));
  private readonly freshCounts = new Map<string, number>();
  /** Set once a line needs counting: cl100k_base costs about 100 ms to load. */
  tokenizer: CountTokens | null = null;

  constructor(private readonly store: TagStore) {}

  /** The tables of `paths` (the files just indexed, in path order). */
  async identifierTables(paths: readonly string[], timer: StageTimer): Promise<IdentifierTables> {
    this.sync();
    if (this.tables && samePaths(filePaths(this.tables), paths)) return this.tables;
    timer.begin('read tables');
    const stored = this.store.identifierTables();
    const decoded = stored ? decodeIdentifierTables(stored) : null;
    if (decoded && samePaths(filePaths(decoded), paths)) {
      this.tables = decoded;
      return decoded;
    }

    timer.begin('build tables');
    const files: FileTags[] = paths.map((path) => {
      const record = this.store.rankPart(path);
      return { path, definitions: record?.definitions ?? [], referenceCounts: record?.referenceCounts ?? NO_REFERENCES };
    });
    this.tables = buildIdentifierTables(files);
    timer.begin('save tables');
    await this.store.saveIdentifierTables(encodeIdentifierTables(this.tables), this.generation);
    return this.tables;
  }

  renderPart(path: string): RenderPart | undefined {
    if (!this.renderParts.has(path)) this.renderParts.set(path, this.store.renderPart(path));
    return this.renderParts.get(path);
  }

  /** Tokens of a rendering, from its lines' counts; TokenizerNeeded when a line has none yet and no tokenizer is set. */
  countTokens(rendering: string): number {
    return this.counter.count(rendering);
  }

  private lineTokens(line: string): number {
    const stored = this.store.tokenCount(line);
    if (stored !== undefined) return stored;
    if (!this.tokenizer) throw new TokenizerNeeded();
    const count = this.tokenizer(line);
    this.freshCounts.set(line, count);
    return count;
  }

  /** Stores the counts the tokenizer made, so the next process needs no tokenizer for them. */
  async saveTokenCounts(): Promise<void> {
    if (this.freshCounts.size === 0) return;
    await this.store.saveTokenCounts(this.freshCounts);
    this.freshCounts.clear();
  }

  /** A commit since the last look makes what was decoded stale. */
  private sync(): void {
    const generation = this.store.generation();
    if (generation === this.generation) return;
    this.generation = generation;
    this.tables = null;
    this.renderParts.clear();
  }
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
