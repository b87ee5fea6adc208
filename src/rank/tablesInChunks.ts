import type { ImportGraph } from '../imports/importGraph.js';
import { buildIdentifierTables, type FileTags, type IdentifierTables } from './identifierTables.js';
import { buildLexicalTables, type LexicalTables, lexicalFileCount } from './lexicalTables.js';
import { patchIdentifierTables, patchLexicalTables, type TablesChange } from './patchTables.js';

/**
 * Tables of files handed over in path order, built a chunk at a time: each chunk's tags are
 * merged by the patch (patchTables.ts) into the tables of the chunks before it, so only one
 * chunk's tags are held at once (at 93,200 files all of them took 1.1 GB). The patch keeps the
 * tables those of a build over every file, so the result is the build's, byte for byte.
 */
export class TablesInChunks<Tables, Final> {
  private made: Tables | null = null;
  private readonly paths: string[] = [];
  private pending: FileTags[] = [];
  /** Set once a merge was declined (see patchIdentifierTables): the caller builds whole. */
  private declined = false;

  /**
   * `mergeChunk` merges a chunk into the tables made so far (null for the first), with what
   * `finish` is given at the last; the files of those tables come first in `change.paths`.
   */
  constructor(
    private readonly chunkFiles: number,
    private readonly mergeChunk: (made: Tables | null, change: TablesChange, final: Final | null) => Tables | null,
  ) {}

  /** Takes the next file (after every one before in path order); false once the tables can no longer be made in chunks. */
  add(tags: FileTags): boolean {
    if (this.declined) return false;
    this.paths.push(tags.path);
    this.pending.push(tags);
    if (this.pending.length >= this.chunkFiles) this.merge(null);
    return !this.declined;
  }

  /** The tables of every file added; null when a merge was declined. */
  finish(final: Final): Tables | null {
    if (!this.declined) this.merge(final);
    return this.declined ? null : this.made;
  }

  private merge(final: Final | null): void {
    const chunk = this.pending;
    this.pending = [];
    this.made = this.mergeChunk(this.made, { paths: this.paths, changed: chunk }, final);
    this.declined = this.made === null;
  }
}

/** The identifier tables in chunks: a chunk's imports are empty until the last merge, which takes the resolved graph. */
export function identifierTablesInChunks(chunkFiles: number): TablesInChunks<IdentifierTables, ImportGraph> {
  return new TablesInChunks(chunkFiles, (made, change, imports) => {
    const graph = imports ?? importsOfNone(change.paths.length);
    return made ? patchIdentifierTables(made, change, graph) : buildIdentifierTables(change.changed, graph);
  });
}

/** The lexical tables in chunks: the tables made so far are over the first of the paths, in order. */
export function lexicalTablesInChunks(chunkFiles: number): TablesInChunks<LexicalTables, null> {
  return new TablesInChunks(chunkFiles, (made, change) =>
    made ? patchLexicalTables(made, change.paths.slice(0, lexicalFileCount(made)), change) : buildLexicalTables(change.changed),
  );
}

function importsOfNone(files: number): ImportGraph {
  return { importOffsets: new Int32Array(files + 1), importTargets: new Int32Array(0) };
}
