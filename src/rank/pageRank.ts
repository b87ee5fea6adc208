import { DEFAULTS } from '../defaults.js';

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
 * A weighted directed graph over files, parallel edges already summed, stored by target (each
 * file's incoming edges) as the iteration pulls rank. Only files with an edge take part, as
 * networkx's graph holds only those; the others keep rank 0.
 */
export interface FileGraph {
  /** Per file, the files with an edge into it (ascending) and the edges' weights; CSR. */
  inOffsets: Int32Array;
  inSources: Int32Array;
  inWeights: Float64Array;
  /** Per file, a factor on its edges in inWeights (aider's ×50 for a chat file's references). */
  sourceScales: Float64Array;
  /** Per file, the weight of its self-edges, which sourceScales leaves alone. */
  selfWeights: Float64Array;
  /** Per file, the total weight of its out-edges, scaled, self-edges included. */
  outWeights: Float64Array;
  inGraph: Uint8Array;
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
  let x = new Float64Array(fileCount);
  for (let file = 0; file < fileCount; file++) if (inGraph[file]) x[file] = 1 / n;
  let next = new Float64Array(fileCount);
  const share = new Float64Array(fileCount);
  for (let iteration = 1; iteration <= options.maxIterations; iteration++) {
    const change = iterate(graph, p, options.damping, x, next, share);
    const previous = x;
    x = next;
    next = previous;
    if (change < n * options.tolerance) return { ranks: x, iterations: iteration, converged: true };
  }
  return { ranks: x, iterations: options.maxIterations, converged: false };
}

/**
 * One power iteration, x → next; returns the L1 change. A function of its own, and small: V8
 * optimizes it within the first call, where the whole of pageRank took 5 ms to compile.
 */
function iterate(graph: FileGraph, p: Float64Array, alpha: number, x: Float64Array, next: Float64Array, share: Float64Array): number {
  const { inOffsets, inSources, inWeights, sourceScales, selfWeights, outWeights } = graph;
  const fileCount = x.length;
  // What one unit of weight of each file's (unscaled) reference edges carries.
  let danglingMass = 0;
  for (let file = 0; file < fileCount; file++) {
    const out = outWeights[file]!;
    if (out === 0) danglingMass += x[file]!;
    share[file] = out === 0 ? 0 : (x[file]! * sourceScales[file]!) / out;
  }
  let change = 0;
  for (let file = 0; file < fileCount; file++) {
    const out = outWeights[file]!;
    let inflow = out === 0 ? 0 : (x[file]! * selfWeights[file]!) / out;
    for (let e = inOffsets[file]!; e < inOffsets[file + 1]!; e++) inflow += share[inSources[e]!]! * inWeights[e]!;
    const value = alpha * (inflow + danglingMass * p[file]!) + (1 - alpha) * p[file]!;
    change += Math.abs(value - x[file]!);
    next[file] = value;
  }
  return change;
}
