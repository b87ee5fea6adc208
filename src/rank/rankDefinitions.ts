import { DEFAULT_PAGERANK, EmptyPersonalizationError, pageRank, type PageRankOptions } from './pageRank.js';

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
  referenceNames: readonly string[];
}

export interface RankOptions {
  /** Files the user is working on: personalized, their references weigh ×50, never listed. */
  chatFiles?: ReadonlySet<string>;
  mentionedFiles?: ReadonlySet<string>;
  mentionedIdents?: ReadonlySet<string>;
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

export function rankDefinitions(files: readonly FileTags[], options: RankOptions = {}): Ranking {
  const chatFiles = options.chatFiles ?? new Set<string>();
  const mentionedFiles = options.mentionedFiles ?? new Set<string>();
  const mentionedIdents = options.mentionedIdents ?? new Set<string>();
  const sorted = [...files].sort((a, b) => compare(a.path, b.path));
  const personalization = personalize(sorted, chatFiles, mentionedFiles, mentionedIdents);

  // Interned identifiers: who defines each, and how often each file references it.
  const identIds = new Map<string, number>();
  const identNames: string[] = [];
  const internIdent = (name: string): number => {
    let id = identIds.get(name);
    if (id === undefined) {
      id = identNames.length;
      identIds.set(name, id);
      identNames.push(name);
    }
    return id;
  };
  const definers: Set<number>[] = [];
  const referenceCounts: Map<number, number>[] = [];
  const definitionLines = new Map<string, number[]>();
  sorted.forEach((file, fileId) => {
    for (const definition of file.definitions) {
      const ident = internIdent(definition.name);
      (definers[ident] ??= new Set()).add(fileId);
      const key = `${fileId}\0${ident}`;
      const lines = definitionLines.get(key);
      if (lines) lines.push(definition.line);
      else definitionLines.set(key, [definition.line]);
    }
  });
  let anyReference = false;
  sorted.forEach((file, fileId) => {
    for (const name of file.referenceNames) {
      const ident = internIdent(name);
      const counts = (referenceCounts[ident] ??= new Map());
      counts.set(fileId, (counts.get(fileId) ?? 0) + 1);
      anyReference = true;
    }
  });
  // With no references at all, every definition counts as referenced once by its definer.
  if (!anyReference) {
    definers.forEach((fileIds, ident) => {
      referenceCounts[ident] = new Map([...fileIds].map((fileId) => [fileId, 1]));
    });
  }

  const edges = new EdgeList();
  definers.forEach((fileIds, ident) => {
    if (referenceCounts[ident]) return;
    for (const definer of fileIds) edges.add(definer, definer, UNREFERENCED_SELF_EDGE, ident);
  });
  definers.forEach((fileIds, ident) => {
    const counts = referenceCounts[ident];
    if (!counts) return;
    const name = identNames[ident]!;
    let multiplier = 1;
    if (mentionedIdents.has(name)) multiplier *= MENTIONED;
    if (isLongStructuredName(name)) multiplier *= LONG_STRUCTURED_NAME;
    if (name.startsWith('_')) multiplier *= PRIVATE_NAME;
    if (fileIds.size > COMMON_NAME_DEFINERS) multiplier *= COMMON_NAME;
    for (const [referencer, count] of counts) {
      // aider roots the count again for every further definer, in hash order; once is the intent.
      const weight = multiplier * (chatFiles.has(sorted[referencer]!.path) ? CHAT_REFERENCER : 1) * Math.sqrt(count);
      for (const definer of fileIds) edges.add(referencer, definer, weight, ident);
    }
  });

  // PageRank runs on the files that have edges, as networkx's graph holds only those.
  const { nodeOf, fileOf } = edges.nodes(sorted.length);
  const nodeCount = fileOf.length;
  let personalizationVector: Float64Array | null = null;
  if (personalization.size > 0) {
    personalizationVector = new Float64Array(nodeCount);
    for (let node = 0; node < nodeCount; node++) personalizationVector[node] = personalization.get(sorted[fileOf[node]!]!.path) ?? 0;
  }
  const graph = edges.overNodes(nodeOf, nodeCount);
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
  const outWeight = new Float64Array(nodeCount);
  for (let e = 0; e < edges.length; e++) outWeight[graph.sources[e]!]! += graph.weights[e]!;
  const scores = new Map<string, { path: string; name: string; score: number }>();
  for (let e = 0; e < edges.length; e++) {
    const source = graph.sources[e]!;
    const share = (ranks[source]! * graph.weights[e]!) / outWeight[source]!;
    const path = sorted[fileOf[graph.targets[e]!]!]!.path;
    const name = identNames[edges.idents[e]!]!;
    const key = `${path}\0${name}`;
    const entry = scores.get(key);
    if (entry) entry.score += share;
    else scores.set(key, { path, name, score: share });
  }
  const definitions = [...scores.values()].sort(
    (a, b) => b.score - a.score || compare(b.path, a.path) || compare(b.name, a.name),
  );

  const fileRanks = fileOf
    .map((fileId, node) => ({ path: sorted[fileId]!.path, rank: ranks[node]! }))
    .sort((a, b) => b.rank - a.rank || compare(b.path, a.path));

  const fileIds = new Map(sorted.map((file, fileId) => [file.path, fileId]));
  const entries: RankedEntry[] = [];
  const listed = new Set<string>();
  for (const { path, name } of definitions) {
    if (chatFiles.has(path)) continue;
    const lines = definitionLines.get(`${fileIds.get(path)}\0${identIds.get(name)}`);
    if (!lines) continue;
    entries.push({ path, name, lines: [...lines].sort((a, b) => a - b) });
    listed.add(path);
  }
  for (const { path } of fileRanks) {
    if (!listed.has(path)) entries.push({ path, name: null, lines: [] });
    listed.add(path);
  }
  for (const file of sorted) {
    if (!listed.has(file.path) && !chatFiles.has(file.path)) entries.push({ path: file.path, name: null, lines: [] });
  }

  return {
    personalization,
    fileRanks,
    definitions,
    entries,
    edgeCount: edges.length,
    pageRankIterations: result.iterations,
    converged: result.converged,
  };
}

/**
 * 100/N for each chat file, mentioned file, and file a path component of which (a directory,
 * the basename, the basename without extension) is a mentioned identifier (aider's rules).
 */
function personalize(
  files: readonly FileTags[],
  chatFiles: ReadonlySet<string>,
  mentionedFiles: ReadonlySet<string>,
  mentionedIdents: ReadonlySet<string>,
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

/** The multigraph's edges, file → file, each carrying its identifier. */
class EdgeList {
  private sources: number[] = [];
  private targets: number[] = [];
  private weights: number[] = [];
  readonly idents: number[] = [];

  get length(): number {
    return this.sources.length;
  }

  add(source: number, target: number, weight: number, ident: number): void {
    this.sources.push(source);
    this.targets.push(target);
    this.weights.push(weight);
    this.idents.push(ident);
  }

  /** Graph nodes in order of first appearance in an edge, as networkx adds them. */
  nodes(fileCount: number): { nodeOf: Int32Array; fileOf: number[] } {
    const nodeOf = new Int32Array(fileCount).fill(-1);
    const fileOf: number[] = [];
    for (let e = 0; e < this.sources.length; e++) {
      for (const file of [this.sources[e]!, this.targets[e]!]) {
        if (nodeOf[file] === -1) {
          nodeOf[file] = fileOf.length;
          fileOf.push(file);
        }
      }
    }
    return { nodeOf, fileOf };
  }

  overNodes(nodeOf: Int32Array, nodeCount: number) {
    const m = this.sources.length;
    const sources = new Int32Array(m);
    const targets = new Int32Array(m);
    for (let e = 0; e < m; e++) {
      sources[e] = nodeOf[this.sources[e]!]!;
      targets[e] = nodeOf[this.targets[e]!]!;
    }
    return { nodeCount, sources, targets, weights: Float64Array.from(this.weights) };
  }
}
