import { DEFAULT_PAGERANK, EmptyPersonalizationError, pageRank, type PageRankOptions, type WeightedEdges } from './pageRank.js';

/**
 * aider's repo-map ranking (aider/repomap.py, get_ranked_tags), step by step on interned ids:
 * files that share identifiers are linked, referencer → definer, with aider's weights;
 * personalized PageRank ranks the files; each file's rank is spread over its out-edges to give
 * (file, identifier) scores; the ranked list is the definitions by score, then the files.
 */

/** One file's tags, as ranking needs them. */
export interface FileTags {
  path: string;
  definitions: readonly { name: string; line: number }[];
  /** Each referenced name once, with how often the file references it. */
  referenceCounts: { readonly names: readonly string[]; readonly counts: readonly number[] };
}

export interface RankOptions {
  /** Files the user is working on: personalized, their references weigh ×50, never listed. */
  chatFiles?: ReadonlySet<string>;
  mentionedFiles?: ReadonlySet<string>;
  mentionedIdents?: ReadonlySet<string>;
  /** Anchored files, each with its share of anchor weight (1 for a whole anchor): ×10 of 100/N. */
  anchors?: ReadonlyMap<string, number>;
  pageRank?: PageRankOptions;
}

export interface RankedDefinition {
  path: string;
  name: string;
  score: number;
}

/** An entry of the ranked list: a file's definitions of one name (by line), or a bare file. */
export type RankedEntry = { path: string; name: string; lines: number[] } | { path: string; name: null; lines: [] };

export interface Ranking {
  personalization: Map<string, number>;
  /** PageRank of every file in the graph, highest first (ties: path descending, as aider). */
  fileRanks: { path: string; rank: number }[];
  /** Every (file, identifier) pair that received rank, highest first. */
  definitions: RankedDefinition[];
  /** Definitions of non-chat files by score, then graph files by rank, then the other files. */
  entries: RankedEntry[];
  edgeCount: number;
  pageRankIterations: number;
  converged: boolean;
}

/** aider's multipliers. */
const MENTIONED = 10;
const LONG_STRUCTURED_NAME = 10;
const PRIVATE_NAME = 0.1;
const COMMON_NAME = 0.1;
const COMMON_NAME_DEFINERS = 5;
const CHAT_REFERENCER = 50;
const UNREFERENCED_SELF_EDGE = 0.1;
const ANCHOR = 10;

export function rankDefinitions(files: readonly FileTags[], options: RankOptions = {}): Ranking {
  const chatFiles = options.chatFiles ?? new Set<string>();
  const mentionedFiles = options.mentionedFiles ?? new Set<string>();
  const mentionedIdents = options.mentionedIdents ?? new Set<string>();
  const sorted = [...files].sort((a, b) => compare(a.path, b.path));
  const personalization = personalize(sorted, chatFiles, mentionedFiles, mentionedIdents, options.anchors ?? new Map());
  const tables = identifierTables(sorted);
  const { identNames } = tables;
  const isChat = sorted.map((file) => chatFiles.has(file.path));

  // The multigraph, file → file, one edge per (referencer, definer, identifier). An edge carries
  // its (definer, identifier) pair as the pair's slot in the definer table.
  const edges = new EdgeList();
  const { definerOffsets, definerFiles, referenceOffsets, referenceFiles, referenceCounts } = tables;
  for (let ident = 0; ident < identNames.length; ident++) {
    const definersStart = definerOffsets[ident]!;
    const definersEnd = definerOffsets[ident + 1]!;
    if (definersStart === definersEnd) continue;
    const referencesStart = referenceOffsets[ident]!;
    const referencesEnd = referenceOffsets[ident + 1]!;
    if (referencesStart === referencesEnd) {
      for (let d = definersStart; d < definersEnd; d++) edges.add(definerFiles[d]!, definerFiles[d]!, UNREFERENCED_SELF_EDGE, d);
      continue;
    }
    const name = identNames[ident]!;
    let multiplier = 1;
    if (mentionedIdents.has(name)) multiplier *= MENTIONED;
    if (isLongStructuredName(name)) multiplier *= LONG_STRUCTURED_NAME;
    if (name.startsWith('_')) multiplier *= PRIVATE_NAME;
    if (definersEnd - definersStart > COMMON_NAME_DEFINERS) multiplier *= COMMON_NAME;
    for (let r = referencesStart; r < referencesEnd; r++) {
      const referencer = referenceFiles[r]!;
      // aider roots the count again for every further definer, in hash order; once is the intent.
      const weight = multiplier * (isChat[referencer] ? CHAT_REFERENCER : 1) * Math.sqrt(referenceCounts[r]!);
      for (let d = definersStart; d < definersEnd; d++) edges.add(referencer, definerFiles[d]!, weight, d);
    }
  }

  // PageRank runs on the files that have edges, as networkx's graph holds only those.
  const graph = edges.toGraph(sorted.length);
  const { fileOf } = graph;
  const nodeCount = fileOf.length;
  let personalizationVector: Float64Array | null = null;
  if (personalization.size > 0) {
    personalizationVector = new Float64Array(nodeCount);
    for (let node = 0; node < nodeCount; node++) personalizationVector[node] = personalization.get(sorted[fileOf[node]!]!.path) ?? 0;
  }
  const pageRankOptions = options.pageRank ?? DEFAULT_PAGERANK;
  let result;
  try {
    result = pageRank(graph, personalizationVector, pageRankOptions);
  } catch (error) {
    // aider retries without personalization when networkx divides by zero (aider #1536).
    if (!(error instanceof EmptyPersonalizationError)) throw error;
    result = pageRank(graph, null, pageRankOptions);
  }
  const ranks = result.ranks;

  // Spread each file's rank over its out-edges by weight: (definer, identifier) scores.
  const edgeCount = graph.sources.length;
  const outWeight = new Float64Array(nodeCount);
  for (let e = 0; e < edgeCount; e++) outWeight[graph.sources[e]!]! += graph.weights[e]!;
  const identCount = identNames.length;
  const pairScores = new Float64Array(definerFiles.length);
  const pairHasEdge = new Uint8Array(definerFiles.length);
  for (let e = 0; e < edgeCount; e++) {
    const source = graph.sources[e]!;
    const slot = graph.slots[e]!;
    pairScores[slot]! += (ranks[source]! * graph.weights[e]!) / outWeight[source]!;
    pairHasEdge[slot] = 1;
  }
  const scored: { fileId: number; ident: number; path: string; name: string; score: number }[] = [];
  for (let ident = 0; ident < identCount; ident++) {
    for (let d = definerOffsets[ident]!; d < definerOffsets[ident + 1]!; d++) {
      if (!pairHasEdge[d]) continue;
      const fileId = definerFiles[d]!;
      scored.push({ fileId, ident, path: sorted[fileId]!.path, name: identNames[ident]!, score: pairScores[d]! });
    }
  }
  // aider sorts by (score, (path, name)) descending.
  scored.sort((a, b) => b.score - a.score || b.fileId - a.fileId || compare(b.name, a.name));

  const fileRanks = fileOf
    .map((fileId, node) => ({ fileId, rank: ranks[node]! }))
    .sort((a, b) => b.rank - a.rank || b.fileId - a.fileId);

  const linesByPair = tables.definitionLines();
  const entries: RankedEntry[] = [];
  const listed = new Uint8Array(sorted.length);
  for (const { fileId, ident, path, name } of scored) {
    if (isChat[fileId]) continue;
    const lines = linesByPair.get(fileId * identCount + ident);
    if (!lines) continue;
    entries.push({ path, name, lines });
    listed[fileId] = 1;
  }
  for (const { fileId } of fileRanks) {
    if (!listed[fileId]) entries.push({ path: sorted[fileId]!.path, name: null, lines: [] });
    listed[fileId] = 1;
  }
  sorted.forEach((file, fileId) => {
    if (!listed[fileId] && !isChat[fileId]) entries.push({ path: file.path, name: null, lines: [] });
  });

  return {
    personalization,
    fileRanks: fileRanks.map(({ fileId, rank }) => ({ path: sorted[fileId]!.path, rank })),
    definitions: scored.map(({ path, name, score }) => ({ path, name, score })),
    entries,
    edgeCount,
    pageRankIterations: result.iterations,
    converged: result.converged,
  };
}

interface IdentifierTables {
  identNames: string[];
  /** Per identifier, the files defining it (ascending): CSR over definerFiles. */
  definerOffsets: Int32Array;
  definerFiles: Int32Array;
  /** Per identifier, the files referencing it (ascending) and how often: CSR. */
  referenceOffsets: Int32Array;
  referenceFiles: Int32Array;
  referenceCounts: Int32Array;
  /** 1-based lines of each (file, identifier) definition, keyed file × identifiers + identifier. */
  definitionLines(): Map<number, number[]>;
}

/**
 * Identifiers interned to ids; who defines and who references each, as CSR arrays. With no
 * references at all, every definition counts as referenced once by its definer (aider's rule).
 */
function identifierTables(files: readonly FileTags[]): IdentifierTables {
  const identIds = new Map<string, number>();
  const identNames: string[] = [];
  const intern = (name: string): number => {
    let id = identIds.get(name);
    if (id === undefined) {
      id = identNames.length;
      identIds.set(name, id);
      identNames.push(name);
    }
    return id;
  };
  const definitionIdents: number[] = [];
  const definitionFiles: number[] = [];
  const definitionLineList: number[] = [];
  const referenceIdents: number[] = [];
  const referenceFileList: number[] = [];
  const referenceCountList: number[] = [];
  files.forEach((file, fileId) => {
    for (const definition of file.definitions) {
      definitionIdents.push(intern(definition.name));
      definitionFiles.push(fileId);
      definitionLineList.push(definition.line);
    }
    const { names, counts } = file.referenceCounts;
    for (let i = 0; i < names.length; i++) {
      referenceIdents.push(intern(names[i]!));
      referenceFileList.push(fileId);
      referenceCountList.push(counts[i]!);
    }
  });
  const identCount = identNames.length;
  const definers = groupByIdent(identCount, definitionIdents, definitionFiles, null);
  const anyReference = referenceIdents.length > 0;
  const references = anyReference
    ? groupByIdent(identCount, referenceIdents, referenceFileList, referenceCountList)
    : groupByIdent(identCount, definitionIdents, definitionFiles, null);
  return {
    identNames,
    definerOffsets: definers.offsets,
    definerFiles: definers.files,
    referenceOffsets: references.offsets,
    referenceFiles: references.files,
    referenceCounts: anyReference ? references.counts : references.counts.fill(1),
    definitionLines() {
      const lines = new Map<number, number[]>();
      for (let i = 0; i < definitionIdents.length; i++) {
        const pair = definitionFiles[i]! * identCount + definitionIdents[i]!;
        const list = lines.get(pair);
        if (list) list.push(definitionLineList[i]!);
        else lines.set(pair, [definitionLineList[i]!]);
      }
      for (const list of lines.values()) list.sort((a, b) => a - b);
      return lines;
    },
  };
}

/**
 * (identifier, file, count) occurrences grouped by identifier with a counting sort (a null
 * `occurrences` counts each once); occurrences come in ascending file order, so each group's
 * files are ascending and repeats are adjacent.
 */
function groupByIdent(
  identCount: number,
  idents: readonly number[],
  fileIds: readonly number[],
  occurrences: readonly number[] | null,
): { offsets: Int32Array; files: Int32Array; counts: Int32Array } {
  const starts = new Int32Array(identCount + 1);
  for (const ident of idents) starts[ident + 1]!++;
  for (let i = 0; i < identCount; i++) starts[i + 1]! += starts[i]!;
  const orderedFiles = new Int32Array(idents.length);
  const orderedCounts = new Int32Array(idents.length);
  const cursor = starts.slice(0, identCount);
  for (let i = 0; i < idents.length; i++) {
    const slot = cursor[idents[i]!]!++;
    orderedFiles[slot] = fileIds[i]!;
    orderedCounts[slot] = occurrences ? occurrences[i]! : 1;
  }
  const offsets = new Int32Array(identCount + 1);
  const files = new Int32Array(idents.length);
  const counts = new Int32Array(idents.length);
  let out = 0;
  for (let ident = 0; ident < identCount; ident++) {
    offsets[ident] = out;
    for (let i = starts[ident]!; i < starts[ident + 1]!; i++) {
      if (out > offsets[ident]! && files[out - 1] === orderedFiles[i]) counts[out - 1]! += orderedCounts[i]!;
      else {
        files[out] = orderedFiles[i]!;
        counts[out++] = orderedCounts[i]!;
      }
    }
  }
  offsets[identCount] = out;
  return { offsets, files: files.subarray(0, out), counts: counts.subarray(0, out) };
}

/**
 * 100/N for each chat file, mentioned file, and file a path component of which (a directory,
 * the basename, the basename without extension) is a mentioned identifier (aider's rules);
 * ten times that for an anchored file, split when an anchor names several.
 */
function personalize(
  files: readonly FileTags[],
  chatFiles: ReadonlySet<string>,
  mentionedFiles: ReadonlySet<string>,
  mentionedIdents: ReadonlySet<string>,
  anchors: ReadonlyMap<string, number>,
): Map<string, number> {
  const personalization = new Map<string, number>();
  const share = 100 / files.length;
  for (const { path } of files) {
    let weight = chatFiles.has(path) ? share : 0;
    if (mentionedFiles.has(path)) weight = Math.max(weight, share);
    const parts = path.split('/');
    const basename = parts[parts.length - 1]!;
    const dot = basename.lastIndexOf('.');
    const components = [...parts, dot > 0 ? basename.slice(0, dot) : basename];
    if (components.some((component) => mentionedIdents.has(component))) weight += share;
    weight += ANCHOR * share * (anchors.get(path) ?? 0);
    if (weight > 0) personalization.set(path, weight);
  }
  return personalization;
}

/** snake_case, kebab-case or camelCase, 8 characters or more (aider's test). */
function isLongStructuredName(name: string): boolean {
  if (name.length < 8) return false;
  const hasAlpha = /\p{L}/u.test(name);
  const snake = name.includes('_') && hasAlpha;
  const kebab = name.includes('-') && hasAlpha;
  const camel = /\p{Lu}/u.test(name) && /\p{Ll}/u.test(name);
  return snake || kebab || camel;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The multigraph's edges, file → file, each carrying its (definer, identifier) slot, in growable typed arrays. */
class EdgeList {
  private sources = new Int32Array(1024);
  private targets = new Int32Array(1024);
  private weights = new Float64Array(1024);
  private slots = new Int32Array(1024);
  private count = 0;

  add(source: number, target: number, weight: number, slot: number): void {
    if (this.count === this.sources.length) this.grow();
    this.sources[this.count] = source;
    this.targets[this.count] = target;
    this.weights[this.count] = weight;
    this.slots[this.count++] = slot;
  }

  /** Edges over graph nodes, numbered in order of first appearance as networkx adds them. */
  toGraph(fileCount: number): WeightedEdges & { slots: Int32Array; fileOf: number[] } {
    const nodeOf = new Int32Array(fileCount).fill(-1);
    const fileOf: number[] = [];
    const node = (file: number): number => {
      if (nodeOf[file] === -1) {
        nodeOf[file] = fileOf.length;
        fileOf.push(file);
      }
      return nodeOf[file]!;
    };
    const sources = new Int32Array(this.count);
    const targets = new Int32Array(this.count);
    for (let e = 0; e < this.count; e++) {
      sources[e] = node(this.sources[e]!);
      targets[e] = node(this.targets[e]!);
    }
    return { nodeCount: fileOf.length, sources, targets, weights: this.weights.slice(0, this.count), slots: this.slots.slice(0, this.count), fileOf };
  }

  private grow(): void {
    const size = this.sources.length * 2;
    const grown = <T extends Int32Array | Float64Array>(array: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(array);
      return next;
    };
    this.sources = grown(this.sources, (n) => new Int32Array(n));
    this.targets = grown(this.targets, (n) => new Int32Array(n));
    this.weights = grown(this.weights, (n) => new Float64Array(n));
    this.slots = grown(this.slots, (n) => new Int32Array(n));
  }
}
