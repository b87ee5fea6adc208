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

/** Edges as parallel arrays over nodes 0..nodeCount−1. */
export interface WeightedEdges {
  nodeCount: number;
  sources: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
}

export interface PageRankResult {
  ranks: Float64Array;
  iterations: number;
  converged: boolean;
}

/** Thrown where networkx divides by zero: a personalization with no weight on any node. */
export class EmptyPersonalizationError extends Error {}

/**
 * `personalization` holds one weight per node (null: uniform); it also serves as the dangling
 * distribution, as aider passes `dangling=personalization`.
 */
export function pageRank(edges: WeightedEdges, personalization: Float64Array | null, options: PageRankOptions = DEFAULT_PAGERANK): PageRankResult {
  const n = edges.nodeCount;
  const { offsets, targets, weights } = toNormalizedCsr(edges);
  const p = new Float64Array(n);
  if (personalization) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += personalization[i]!;
    if (sum === 0) throw new EmptyPersonalizationError('personalization has no weight on any node');
    for (let i = 0; i < n; i++) p[i] = personalization[i]! / sum;
  } else {
    p.fill(1 / n);
  }
  const dangling: number[] = [];
  for (let i = 0; i < n; i++) if (offsets[i] === offsets[i + 1]) dangling.push(i);

  let x = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  const alpha = options.damping;
  for (let iteration = 1; iteration <= options.maxIterations; iteration++) {
    let danglingMass = 0;
    for (const i of dangling) danglingMass += x[i]!;
    next.fill(0);
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      for (let e = offsets[i]!; e < offsets[i + 1]!; e++) next[targets[e]!]! += xi * weights[e]!;
    }
    let change = 0;
    for (let i = 0; i < n; i++) {
      const value = alpha * (next[i]! + danglingMass * p[i]!) + (1 - alpha) * p[i]!;
      change += Math.abs(value - x[i]!);
      next[i] = value;
    }
    [x, next] = [next, x];
    if (change < n * options.tolerance) return { ranks: x, iterations: iteration, converged: true };
  }
  return { ranks: x, iterations: options.maxIterations, converged: false };
}

/** CSR by source (a counting sort), parallel edges summed, each row divided by its total weight. */
function toNormalizedCsr(edges: WeightedEdges): { offsets: Int32Array; targets: Int32Array; weights: Float64Array } {
  const n = edges.nodeCount;
  const m = edges.sources.length;
  const rowStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) rowStart[edges.sources[e]! + 1]!++;
  for (let i = 0; i < n; i++) rowStart[i + 1]! += rowStart[i]!;
  const cursor = rowStart.slice(0, n);
  const rowTargets = new Int32Array(m);
  const rowWeights = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    const slot = cursor[edges.sources[e]!]!++;
    rowTargets[slot] = edges.targets[e]!;
    rowWeights[slot] = edges.weights[e]!;
  }
  // Merge parallel edges row by row; `slotOf` remembers where a target went in the current row.
  const offsets = new Int32Array(n + 1);
  const targets = new Int32Array(m);
  const weights = new Float64Array(m);
  const slotOf = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = count;
    let total = 0;
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
      const target = rowTargets[e]!;
      const weight = rowWeights[e]!;
      total += weight;
      const slot = slotOf[target]!;
      if (slot >= offsets[i]!) {
        weights[slot]! += weight;
      } else {
        slotOf[target] = count;
        targets[count] = target;
        weights[count++] = weight;
      }
    }
    for (let e = offsets[i]!; e < count; e++) weights[e]! /= total;
  }
  offsets[n] = count;
  return { offsets, targets: targets.subarray(0, count), weights: weights.subarray(0, count) };
}
