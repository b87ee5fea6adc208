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

export const DEFAULT_PAGERANK: PageRankOptions = { damping: 0.85, tolerance: 1e-6, maxIterations: 100 };

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

/** CSR by source, parallel edges summed, each row divided by its source's total out-weight. */
function toNormalizedCsr(edges: WeightedEdges): { offsets: Int32Array; targets: Int32Array; weights: Float64Array } {
  const n = edges.nodeCount;
  const m = edges.sources.length;
  const order = new Int32Array(m);
  for (let e = 0; e < m; e++) order[e] = e;
  order.sort((a, b) => edges.sources[a]! - edges.sources[b]! || edges.targets[a]! - edges.targets[b]!);
  const offsets = new Int32Array(n + 1);
  const targets = new Int32Array(m);
  const weights = new Float64Array(m);
  let count = 0;
  let row = 0;
  for (const e of order) {
    const source = edges.sources[e]!;
    const target = edges.targets[e]!;
    while (row <= source) offsets[row++] = count;
    if (count > offsets[source]! && targets[count - 1] === target) {
      weights[count - 1]! += edges.weights[e]!;
    } else {
      targets[count] = target;
      weights[count] = edges.weights[e]!;
      count++;
    }
  }
  while (row <= n) offsets[row++] = count;
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (let e = offsets[i]!; e < offsets[i + 1]!; e++) total += weights[e]!;
    for (let e = offsets[i]!; e < offsets[i + 1]!; e++) weights[e]! /= total;
  }
  return { offsets, targets: targets.subarray(0, count), weights: weights.subarray(0, count) };
}
