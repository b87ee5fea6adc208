import { DEFAULTS } from '../defaults.js';
import { PowerIteration } from './powerIteration.js';

/**
 * Personalized PageRank on a weighted directed graph, computed as networkx's `pagerank` does
 * (the scipy variant aider calls): parallel edges summed, each node's out-weights normalized,
 * dangling mass and teleport sent to the personalization vector, power iteration until the L1
 * change is below N × tol.
 */
export interface PageRankOptions {
  damping: number;
  tolerance: number;
  maxIterations: number;
}

export const DEFAULT_PAGERANK: PageRankOptions = DEFAULTS.pageRank;

/**
 * A weighted directed graph over files, factored through names: each reference slot (a file
 * referencing a name) is an edge of its weight from the referencer into every file defining the
 * name, and those edges between two files are summed, as parallel edges are. Only files with an
 * edge take part, as networkx's graph holds only those; the others keep rank 0.
 */
export interface FileGraph {
  /** Per name, its referencers (CSR) and the weight of each one's edge into every definer. */
  referenceOffsets: Int32Array;
  referenceFiles: Int32Array;
  referenceWeights: Float64Array;
  /** Per name, its definers (CSR). */
  definerOffsets: Int32Array;
  definerFiles: Int32Array;
  /** Per file, a factor on its reference edges (aider's ×50 for a chat file's references). */
  sourceScales: Float64Array;
  /** Per file, the weight of its self-edges, which sourceScales leaves alone. */
  selfWeights: Float64Array;
  /** Per file, the total weight of its out-edges, scaled, self-edges included. */
  outWeights: Float64Array;
  inGraph: Uint8Array;
  /** File-to-file edges beside the names' (the task ranking's resolved imports), each of `weight`, scaled as reference edges are. */
  links?: { offsets: Int32Array; targets: Int32Array; weight: number };
}

export interface PageRankResult {
  /** Per file; 0 for files outside the graph. */
  ranks: Float64Array;
  iterations: number;
  converged: boolean;
}

/** Thrown where networkx divides by zero: a personalization with no weight on any node. */
export class EmptyPersonalizationError extends Error {}

/**
 * `personalization` holds one weight per file (null: uniform over the graph's files); it also
 * serves as the dangling distribution, as aider passes `dangling=personalization`.
 */
export function pageRank(graph: FileGraph, personalization: Float64Array | null, options: PageRankOptions = DEFAULT_PAGERANK): PageRankResult {
  // Plain loops over every file: a file outside the graph has no edges, no personalization and
  // rank 0 throughout, so it adds nothing, and the loops stay simple enough to run fast cold.
  const { inGraph } = graph;
  const fileCount = inGraph.length;
  let n = 0;
  for (let file = 0; file < fileCount; file++) n += inGraph[file]!;
  const p = new Float64Array(fileCount);
  if (personalization) {
    let sum = 0;
    for (let file = 0; file < fileCount; file++) if (inGraph[file]) sum += personalization[file]!;
    if (sum === 0) throw new EmptyPersonalizationError('personalization has no weight on any node');
    for (let file = 0; file < fileCount; file++) if (inGraph[file]) p[file] = personalization[file]! / sum;
  } else {
    for (let file = 0; file < fileCount; file++) if (inGraph[file]) p[file] = 1 / n;
  }
  const x = new Float64Array(fileCount);
  for (let file = 0; file < fileCount; file++) if (inGraph[file]) x[file] = 1 / n;
  const iteration = new PowerIteration(graph, p, x);
  for (let round = 1; round <= options.maxIterations; round++) {
    if (iteration.step(options.damping) < n * options.tolerance) return { ranks: iteration.ranks(), iterations: round, converged: true };
  }
  return { ranks: iteration.ranks(), iterations: options.maxIterations, converged: false };
}
