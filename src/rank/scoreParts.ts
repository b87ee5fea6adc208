/**
 * Each file's score taken apart, as the ranking summed it, for `map --explain`: a ranking makes
 * them only when asked (RankOptions.explain), so a map that does not ask pays nothing.
 *
 * A file's score is role × ((text + names + mentionedPaths + mentionedNames + graph) × recency + coChange).
 */
export interface FileScoreParts {
  /** Per file id, BM25 over its text and path, normalised and weighted (the task ranking with a query; else 0). */
  text: Float64Array;
  /** Per file id, BM25 over the names it defines, normalised and weighted. */
  names: Float64Array;
  /** Per file id, how well the paths and qualified names the task's text mentions match its path, normalised and weighted. */
  mentionedPaths: Float64Array;
  /** Per file id, the defined names the task's text mentions, by rarity, normalised and weighted. */
  mentionedNames: Float64Array;
  /** Per file id, its PageRank (aider's ranking), or its share of the graph's, normalised and weighted (the task ranking). */
  graph: Float64Array;
  /** Per file id, the factor git recency multiplies by (1 when off). */
  recency: Float64Array;
  /** Per file id, what changing together with a chat file adds (0 when off). */
  coChange: Float64Array;
  /** Per file id, what a test's or an auxiliary file's score is multiplied by (1 for code). */
  role: Float64Array;
  /** Per definer slot, the rank its name brings its file from the files referencing it (the graph's definition score). */
  incoming: Float64Array;
}

/** Parts with no signal on: each score all graph (aider's ranking), no factor. */
export function graphOnlyParts(graph: Float64Array, incoming: Float64Array): FileScoreParts {
  const fileCount = graph.length;
  return {
    text: new Float64Array(fileCount),
    names: new Float64Array(fileCount),
    mentionedPaths: new Float64Array(fileCount),
    mentionedNames: new Float64Array(fileCount),
    graph,
    recency: new Float64Array(fileCount).fill(1),
    coChange: new Float64Array(fileCount),
    role: new Float64Array(fileCount).fill(1),
    incoming,
  };
}
