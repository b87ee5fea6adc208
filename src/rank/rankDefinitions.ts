import { bareFileEntry, type EntryCode } from './entryCodes.js';
import type { IdentifierTables } from './identifierTables.js';
import { DEFAULT_PAGERANK, EmptyPersonalizationError, type FileGraph, type PageRankOptions, type PageRankResult, pageRank } from './pageRank.js';
import type { PageRankCache } from './pageRankCache.js';
import { type FileScoreParts, graphOnlyParts } from './scoreParts.js';
import { identOf, nameOfSlot, pathOfSlot } from './tableLookups.js';
import { WEIGHTS } from './weights.js';

export { entryOf } from './entryCodes.js';

/**
 * aider's repo-map ranking (aider/repomap.py, get_ranked_tags), step by step on interned ids:
 * files that share identifiers are linked, referencer → definer, with aider's weights (the
 * tables hold the graph with the weights every request shares; the request's own factors are
 * applied here); personalized PageRank ranks the files; each file's rank is spread over its
 * out-edges to give (file, identifier) scores; the ranked list is the definitions by score,
 * then the files.
 */

export interface RankOptions {
  /** Files the user is working on: personalized, their references weigh ×50, never listed. */
  chatFiles?: ReadonlySet<string>;
  mentionedFiles?: ReadonlySet<string>;
  mentionedIdents?: ReadonlySet<string>;
  /** Anchored files, each with its share of anchor weight (1 for a whole anchor): ×10 of 100/N. */
  anchors?: ReadonlyMap<string, number>;
  /** The weight of an edge from a file to each file it imports (the task ranking); none by default. */
  importLinkWeight?: number;
  /** Per identifier, a factor on its edges (the task ranking's names that mean nothing); none by default. */
  identFactors?: Float64Array;
  /** Personalization added per file id (the task ranking's lexical scores), on the scale of a chat file's. */
  extraPersonalization?: Float64Array;
  pageRank?: PageRankOptions;
  /** Where an unpersonalized request's PageRank is looked up first, and kept. */
  pageRankCache?: PageRankCache;
  /** Each file's score taken apart too (Ranking.scoreParts), for `map --explain`. */
  explain?: boolean;
}

export interface RankedDefinition {
  path: string;
  name: string;
  score: number;
}

export interface Ranking {
  personalization: Map<string, number>;
  /** PageRank of every file in the graph, highest first (ties: path descending, as aider). */
  fileRanks: { path: string; rank: number }[];
  /** Every definer slot (a (file, identifier) pair of the tables) by score, highest first: all receive rank. */
  definitionSlots: Int32Array;
  /** Score by definer slot; in a cut ranking, set for definitionSlots only. */
  slotScores: Float64Array;
  /**
   * The ranked list: definitions of non-chat files by score, then graph files by rank, then the
   * other files. Objects (entryOf) only for the entries a rendering shows.
   */
  entryCodes: EntryCode[];
  /** Per file id, 1 for a file the map must not show at all (`--tests exclude`); none when every file may show. */
  hiddenFiles?: Uint8Array;
  /** False when only the best definitions were ranked (definitionSlots and entryCodes are a prefix of the whole ranking's). */
  complete: boolean;
  edgeCount: number;
  pageRankIterations: number;
  converged: boolean;
  /** Each file's score taken apart, when the options asked to explain. */
  scoreParts?: FileScoreParts;
}

/** The ranked (file, identifier) pairs as objects (aider's ranked_definitions). */
export function rankedDefinitions(ranking: Ranking, tables: IdentifierTables): RankedDefinition[] {
  return Array.from(ranking.definitionSlots, (slot) => ({ path: pathOfSlot(tables, slot), name: nameOfSlot(tables, slot), score: ranking.slotScores[slot]! }));
}

/** ×10 of a mentioned file's personalization for an anchor. */
const ANCHOR = 10;

/** PageRank over the request's graph, and each definer slot's score: what both rankings build on. */
export interface GraphScores {
  personalization: Map<string, number>;
  /** Per file id; 0 for files outside the graph. */
  ranks: Float64Array;
  /** Per file id, 1 when it takes part in PageRank. */
  inGraph: Uint8Array;
  /** Per definer slot. */
  slotScores: Float64Array;
  /** Per file id, 1 for a chat file. */
  isChat: Uint8Array;
  iterations: number;
  converged: boolean;
}

export function graphScores(tables: IdentifierTables, options: RankOptions = {}): GraphScores {
  const chatFiles = options.chatFiles ?? new Set<string>();
  const mentionedIdents = options.mentionedIdents ?? new Set<string>();
  const { paths, identNames } = tables;
  const fileCount = paths.length;
  const personalization = personalize(
    paths,
    chatFiles,
    options.mentionedFiles ?? new Set(),
    mentionedIdents,
    options.anchors ?? new Map(),
    options.extraPersonalization,
  );
  const isChat = new Uint8Array(fileCount);
  if (chatFiles.size > 0) for (let fileId = 0; fileId < fileCount; fileId++) isChat[fileId] = chatFiles.has(paths[fileId]!) ? 1 : 0;
  const mentioned = new Uint8Array(identNames.length);
  for (const name of mentionedIdents) {
    const ident = identOf(tables, name);
    if (ident >= 0) mentioned[ident] = 1;
  }

  const graph = requestGraph(tables, isChat, mentioned, options.identFactors, options.importLinkWeight ?? 0);
  let personalizationVector: Float64Array | null = null;
  if (personalization.size > 0) {
    personalizationVector = new Float64Array(fileCount);
    for (let fileId = 0; fileId < fileCount; fileId++) personalizationVector[fileId] = personalization.get(paths[fileId]!) ?? 0;
  }
  const pageRankOptions = options.pageRank ?? DEFAULT_PAGERANK;
  const unpersonalized = personalization.size === 0 && !isChat.includes(1) && !mentioned.includes(1);
  const cacheKey = { identFactors: options.identFactors, importLinkWeight: options.importLinkWeight ?? 0, pageRank: pageRankOptions };
  let result: PageRankResult | undefined = unpersonalized ? options.pageRankCache?.get(cacheKey) : undefined;
  if (!result) {
    try {
      result = pageRank(graph, personalizationVector, pageRankOptions);
    } catch (error) {
      // aider retries without personalization when networkx divides by zero (aider #1536).
      if (!(error instanceof EmptyPersonalizationError)) throw error;
      result = pageRank(graph, null, pageRankOptions);
    }
    if (unpersonalized) options.pageRankCache?.set(cacheKey, result);
  }
  const ranks = result.ranks;
  return {
    personalization,
    ranks,
    inGraph: graph.inGraph,
    slotScores: scoreDefinitions(tables, graph, ranks),
    isChat,
    iterations: result.iterations,
    converged: result.converged,
  };
}

export function rankDefinitions(tables: IdentifierTables, options: RankOptions = {}): Ranking {
  const { paths, definerFiles } = tables;
  const fileCount = paths.length;
  const { personalization, ranks, inGraph, slotScores: scores, isChat, iterations, converged } = graphScores(tables, options);
  const slotCount = scores.length;
  // Every definition has an edge: from its name's referencers, or its self-edge.
  const order = new Int32Array(slotCount);
  for (let d = 0; d < slotCount; d++) order[d] = d;
  // aider sorts by (score, (path, name)) descending.
  const { slotTieRanks } = tables;
  order.sort((a, b) => scores[b]! - scores[a]! || slotTieRanks[b]! - slotTieRanks[a]!);

  const fileRanks: { fileId: number; rank: number }[] = [];
  for (let file = 0; file < fileCount; file++) if (inGraph[file]) fileRanks.push({ fileId: file, rank: ranks[file]! });
  fileRanks.sort((a, b) => b.rank - a.rank || b.fileId - a.fileId);

  const entryCodes: EntryCode[] = [];
  const listed = new Uint8Array(fileCount);
  for (const slot of order) {
    const fileId = definerFiles[slot]!;
    if (isChat[fileId]) continue;
    // A definer slot is its own code (see EntryCode): a call per slot cost 0.3–0.6 ms in a process still cold.
    entryCodes.push(slot as EntryCode);
    listed[fileId] = 1;
  }
  for (const { fileId } of fileRanks) {
    if (!listed[fileId]) entryCodes.push(bareFileEntry(fileId));
    listed[fileId] = 1;
  }
  for (let fileId = 0; fileId < fileCount; fileId++) if (!listed[fileId] && !isChat[fileId]) entryCodes.push(bareFileEntry(fileId));

  return {
    personalization,
    fileRanks: fileRanks.map(({ fileId, rank }) => ({ path: paths[fileId]!, rank })),
    definitionSlots: order,
    slotScores: scores,
    entryCodes,
    complete: true,
    edgeCount: tables.edgeCount,
    pageRankIterations: iterations,
    converged,
    scoreParts: options.explain ? graphOnlyParts(ranks, scores) : undefined,
  };
}

/**
 * Each file's rank spread over its out-edges by weight, summed per (definer, identifier) pair.
 * A referencer's edge of a name carries the same weight to each of the name's definers, so each
 * of them scores Σ over referencers of rank × scale × edge weight / out-weight; a name nobody
 * references scores its definer's self-edge.
 */
function scoreDefinitions(tables: IdentifierTables, graph: FileGraph, ranks: Float64Array): Float64Array {
  const { definerOffsets, definerFiles } = tables;
  const { outWeights, sourceScales, referenceOffsets, referenceFiles, referenceWeights } = graph;
  const fileCount = outWeights.length;
  // What a unit of edge weight carries from each file, and from its self-edges.
  const carried = new Float64Array(fileCount);
  const carriedBySelfEdge = new Float64Array(fileCount);
  for (let file = 0; file < fileCount; file++) {
    if (outWeights[file] === 0) continue;
    carried[file] = (ranks[file]! * sourceScales[file]!) / outWeights[file]!;
    carriedBySelfEdge[file] = ranks[file]! / outWeights[file]!;
  }
  const scores = new Float64Array(definerFiles.length);
  const identCount = definerOffsets.length - 1;
  for (let ident = 0; ident < identCount; ident++) {
    const start = definerOffsets[ident]!;
    const end = definerOffsets[ident + 1]!;
    if (referenceOffsets[ident] === referenceOffsets[ident + 1]) {
      for (let d = start; d < end; d++) scores[d] = carriedBySelfEdge[definerFiles[d]!]! * WEIGHTS.unreferencedSelfEdge;
      continue;
    }
    let score = 0;
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) score += carried[referenceFiles[r]!]! * referenceWeights[r]!;
    for (let d = start; d < end; d++) scores[d] = score;
  }
  return scores;
}

/**
 * The tables' graph with this request's factors: a mentioned name's edges ×10, a chat file's
 * reference edges ×50 (not its self-edges), and the identifier factors, if any.
 */
function requestGraph(
  tables: IdentifierTables,
  isChat: Uint8Array,
  mentioned: Uint8Array,
  identFactors: Float64Array | undefined,
  linkWeight: number,
): FileGraph {
  const { selfWeights, definerOffsets, definerFiles, referenceOffsets, referenceFiles, importOffsets, importTargets } = tables;
  let inGraph = tables.inGraph;
  const fileCount = tables.paths.length;
  let referenceWeights = tables.referenceWeights;
  let refOutWeights = tables.refOutWeights;
  for (let ident = 0; ident < mentioned.length; ident++) {
    const definers = definerOffsets[ident + 1]! - definerOffsets[ident]!;
    const factor = (mentioned[ident] ? WEIGHTS.mentioned : 1) * (identFactors?.[ident] ?? 1);
    if (factor === 1 || definers === 0) continue;
    if (referenceWeights === tables.referenceWeights) {
      referenceWeights = referenceWeights.slice();
      refOutWeights = refOutWeights.slice();
    }
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) {
      const base = referenceWeights[r]!;
      referenceWeights[r] = base * factor;
      refOutWeights[referenceFiles[r]!]! += (referenceWeights[r]! - base) * definers;
    }
  }
  const linked = linkWeight > 0 && importTargets.length > 0;
  if (linked) {
    inGraph = inGraph.slice();
    for (let file = 0; file < fileCount; file++) {
      if (importOffsets[file] === importOffsets[file + 1]) continue;
      inGraph[file] = 1;
      for (let at = importOffsets[file]!; at < importOffsets[file + 1]!; at++) inGraph[importTargets[at]!] = 1;
    }
  }
  const sourceScales = new Float64Array(fileCount).fill(1);
  const outWeights = new Float64Array(fileCount);
  for (let file = 0; file < fileCount; file++) {
    if (isChat[file]) sourceScales[file] = WEIGHTS.chatReferencer;
    const links = linked ? linkWeight * (importOffsets[file + 1]! - importOffsets[file]!) : 0;
    outWeights[file] = sourceScales[file]! * (refOutWeights[file]! + links) + selfWeights[file]!;
  }
  const links = linked ? { offsets: importOffsets, targets: importTargets, weight: linkWeight } : undefined;
  return { referenceOffsets, referenceFiles, referenceWeights, definerOffsets, definerFiles, sourceScales, selfWeights, outWeights, inGraph, links };
}

/**
 * 100/N for each chat file, mentioned file, and file a path component of which (a directory,
 * the basename, the basename without extension) is a mentioned identifier (aider's rules);
 * ten times that for an anchored file, split when an anchor names several.
 */
function personalize(
  paths: readonly string[],
  chatFiles: ReadonlySet<string>,
  mentionedFiles: ReadonlySet<string>,
  mentionedIdents: ReadonlySet<string>,
  anchors: ReadonlyMap<string, number>,
  extra: Float64Array | undefined,
): Map<string, number> {
  const personalization = new Map<string, number>();
  const share = 100 / paths.length;
  for (const [fileId, path] of paths.entries()) {
    let weight = chatFiles.has(path) ? share : 0;
    if (mentionedFiles.has(path)) weight = Math.max(weight, share);
    if (mentionedIdents.size > 0) {
      const parts = path.split('/');
      const basename = parts[parts.length - 1]!;
      const dot = basename.lastIndexOf('.');
      const components = [...parts, dot > 0 ? basename.slice(0, dot) : basename];
      if (components.some((component) => mentionedIdents.has(component))) weight += share;
    }
    weight += ANCHOR * share * (anchors.get(path) ?? 0);
    if (extra) weight += share * extra[fileId]!;
    if (weight > 0) personalization.set(path, weight);
  }
  return personalization;
}
