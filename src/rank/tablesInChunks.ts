import type { ImportGraph } from '../imports/importGraph.js';
import { buildIdentifierTables, type FileTags, type IdentifierTables } from './identifierTables.js';
import { patchIdentifierTables } from './patchTables.js';

/**
 * The tables of files handed over in path order, built a chunk at a time: each chunk's tags are
 * merged by the patch (patchTables.ts) into the tables of the chunks before it, so only one
 * chunk's tags are held at once (at 93,200 files all of them took 1.1 GB). The patch keeps the
 * tables those of a build over every file, so the result is buildIdentifierTables', byte for byte.
 */
export class TablesInChunks {
  private tables: IdentifierTables | null = null;
  private readonly paths: string[] = [];
  private pending: FileTags[] = [];
  /** Set once a merge was declined (see patchIdentifierTables): the caller builds whole. */
  private declined = false;

  constructor(private readonly chunkFiles: number) {}

  /** Takes the next file (after every one before in path order); false once the tables can no longer be made in chunks. */
  add(tags: FileTags): boolean {
    if (this.declined) return false;
    this.paths.push(tags.path);
    this.pending.push(tags);
    if (this.pending.length >= this.chunkFiles) this.merge(importsOfNone(this.paths.length));
    return !this.declined;
  }

  /** The tables of every file added, with `imports` over them; null when a merge was declined. */
  finish(imports: ImportGraph): IdentifierTables | null {
    if (!this.declined) this.merge(imports);
    return this.declined ? null : this.tables;
  }

  /** The pending chunk merged in, with `imports` (the real ones only at the end: chunks before hold none). */
  private merge(imports: ImportGraph): void {
    const chunk = this.pending;
    this.pending = [];
    const merged = this.tables ? patchIdentifierTables(this.tables, { paths: this.paths, changed: chunk }, imports) : buildIdentifierTables(chunk, imports);
    this.tables = merged;
    this.declined = merged === null;
  }
}

function importsOfNone(files: number): ImportGraph {
  return { importOffsets: new Int32Array(files + 1), importTargets: new Int32Array(0) };
}
