/** `repomap merge`: the parts of a sharded index, checked against the tree and joined into one warm artifact. */
import { UsageError } from '../errors.js';
import { checkArtifactOptions } from '../options/checkOptions.js';
import type { ArtifactOptions } from '../options/libraryOptions.js';
import { type ExportSummary, exportIndex } from './exportIndex.js';
import { type ImportSummary, importArtifacts } from './importIndex.js';

export interface MergeOptions extends ArtifactOptions {
  /** The parts' artifacts (`index --shard K/N --export PART`), in any order. */
  parts: readonly string[];
}

export interface MergeSummary {
  /** What the parts gave the root's store. */
  imported: ImportSummary;
  /** The merged artifact, written from that store once indexed and warm. */
  exported: ExportSummary;
}

/**
 * Imports every part into the root's store (each record checked against the tree's file, as
 * `import` does; two parts holding one file are refused), then exports that store as `export`
 * would: indexed (a file no part held, or whose part was stale, is parsed here), warm (the
 * tables derived from all records), one artifact. So the merge job needs the same checkout as
 * the parts, and its artifact is the one a single machine would have written.
 */
export async function mergeArtifacts(options: MergeOptions): Promise<MergeSummary> {
  checkArtifactOptions(options);
  if (options.shard) throw new UsageError('a merge joins the parts of a sharded index: it takes no shard of its own');
  if (!Array.isArray(options.parts) || options.parts.length === 0) throw new UsageError('a merge needs at least one part');
  const imported = await importArtifacts(options, options.parts);
  const exported = await exportIndex(options);
  return { imported, exported };
}
