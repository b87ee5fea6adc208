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
  let x = new Float64Array(fileCount);
  for (let file = 0; file < fileCount; file++) if (inGraph[file]) x[file] = 1 / n;
  let next = new Float64Array(fileCount);
  const share = new Float64Array(fileCount);
  const inflow = new Float64Array(fileCount);
  for (let iteration = 1; iteration <= options.maxIterations; iteration++) {
    const change = iterate(graph, p, options.damping, x, next, share, inflow);
    const previous = x;
    x = next;
    next = previous;
    if (change < n * options.tolerance) return { ranks: x, iterations: iteration, converged: true };
  }
  return { ranks: x, iterations: options.maxIterations, converged: false };
}

/**
 * One power iteration, x → next; returns the L1 change. Rank flows from each referencer into
 * the names it references, and from each name to its definers: one pass over the reference and
 * definer slots, however many file-to-file edges they stand for. A function of its own, and
 * small: V8 optimizes it within the first call, where the whole of pageRank took 5 ms to compile.
 */
function iterate(graph: FileGraph, p: Float64Array, alpha: number, x: Float64Array, next: Float64Array, share: Float64Array, inflow: Float64Array): number {
  const { referenceOffsets, referenceFiles, referenceWeights, definerOffsets, definerFiles, sourceScales, selfWeights, outWeights } = graph;
  const fileCount = x.length;
  // What one unit of weight of each file's reference edges carries, and what its self-edges bring back.
  let danglingMass = 0;
  for (let file = 0; file < fileCount; file++) {
    const out = outWeights[file]!;
    if (out === 0) {
      danglingMass += x[file]!;
      share[file] = 0;
      inflow[file] = 0;
    } else {
      share[file] = (x[file]! * sourceScales[file]!) / out;
      inflow[file] = (x[file]! * selfWeights[file]!) / out;
    }
  }
  const identCount = definerOffsets.length - 1;
  for (let ident = 0; ident < identCount; ident++) {
    const firstDefiner = definerOffsets[ident]!;
    const endDefiner = definerOffsets[ident + 1]!;
    if (firstDefiner === endDefiner) continue;
    let carried = 0;
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) carried += share[referenceFiles[r]!]! * referenceWeights[r]!;
    if (carried === 0) continue;
    for (let d = firstDefiner; d < endDefiner; d++) inflow[definerFiles[d]!]! += carried;
  }
  if (graph.links) {
    const { offsets, targets, weight } = graph.links;
    for (let file = 0; file < fileCount; file++) {
      const carried = share[file]! * weight;
      if (carried === 0) continue;
      for (let at = offsets[file]!; at < offsets[file + 1]!; at++) inflow[targets[at]!]! += carried;
    }
  }
  let change = 0;
  for (let file = 0; file < fileCount; file++) {
    const value = alpha * (inflow[file]! + danglingMass * p[file]!) + (1 - alpha) * p[file]!;
    change += Math.abs(value - x[file]!);
    next[file] = value;
  }
  return change;
}
