import type { GitHistory } from '../history/gitHistory.js';
import { coChangeScores, recencyScores } from '../history/historySignals.js';
import { bm25Scores } from '../lexical/bm25.js';
import type { TaskText } from '../lexical/taskText.js';
import { bestDefinitions } from './bestDefinitions.js';
import { commonNameFactors } from './commonNames.js';
import { bareFileEntry, type EntryCode } from './entryCodes.js';
import { FILE_ROLES } from './fileRoles.js';
import type { IdentifierTables } from './identifierTables.js';
import { type LexicalTables, postingsOf } from './lexicalTables.js';
import { DEFAULT_PAGERANK } from './pageRank.js';
import { graphScores, type Ranking, type RankOptions } from './rankDefinitions.js';
import { type KeptRanking, type RankingCache, rankingKey } from './rankingCache.js';
import { groupInOrder, orderByScore } from './scoreOrder.js';
import type { FileScoreParts } from './scoreParts.js';
import { identOf } from './tableLookups.js';

/**
 * The default ranking: what the task at hand needs, not only what is central. With a task's
 * text, files are scored lexically (BM25 over their text and path and over the names they
 * define, the paths the text mentions and the defined names it writes as code), each signal
 * normalised by its maximum and summed; the best of them personalize aider's PageRank, which
 * adds a little for their neighbours and ranks each file's definitions. Tests and auxiliary
 * files weigh less. Without text, the graph alone (aider's PageRank, with resolved imports as
 * links and common names damped), with that demotion. With the repository's recent git history,
 * files changed lately weigh a little more, and with chat files, the files changed together with
 * them (see historySignals). Definitions come by their file's score and their own worth (see
 * definitionScores); a chat file's neighbourhood first.
 */

/** Tests ranked with the code (`include`), below it (`demote`), or left out of the map (`exclude`). */
export type TestFiles = 'include' | 'demote' | 'exclude';

/** The task ranking's signals, each weighed (0 leaves it out) or switched, for measuring each (bench/quality). */
export interface TaskSignals {
  /** BM25 over each file's path and text. */
  textBm25: number;
  /** BM25 over each file's path alone, added to its text's before normalising: a path says what a file is about, as a title does. */
  pathTerms: number;
  /** BM25 over the names each file defines. */
  nameBm25: number;
  /** Paths and qualified names the text mentions, matched by path suffix. */
  mentionedPaths: number;
  /** Names the text mentions that files define, by rarity. */
  mentionedNames: number;
  /** Mentioned names only where the text writes code (TaskText.codeWords), not every word of its prose. */
  codeWordsOnly: boolean;
  /** The graph ranking's share, personalized by the lexical best. */
  graph: number;
  /** The lexical best files' personalization, in chat files' worth. */
  personalization: number;
  /** What an auxiliary file's score is multiplied by (examples, docs, benchmarks, generated, vendored). */
  auxiliary: number;
  /** The weight of a graph edge from a file to each file it imports (0: names alone link files). */
  importLinks: number;
  /** Builtin and standard-library names weigh little in the graph (src/rank/commonNames.ts). */
  commonNamesListed: boolean;
  /** Names referenced everywhere but defined only as members here and there weigh little. */
  commonNamesLearned: boolean;
  /** The chat files' imports, importers and used definitions come first. */
  chatNeighbourhood: boolean;
  /** With git history and no chat file: a file's score × (1 + this × its recency of change, from 0 to 1). */
  recency: number;
  /** Recency with chat files too, where co-change speaks for the history (bench/quality: recency there helped as often as it hurt). */
  recencyWithChatFiles: boolean;
  /** With git history and chat files: the weight of changing together with a chat file, added to a file's score. */
  coChange: number;
}

export const ALL_SIGNALS: TaskSignals = {
  textBm25: 1.2,
  pathTerms: 1,
  nameBm25: 1,
  mentionedPaths: 1,
  mentionedNames: 0.5,
  codeWordsOnly: true,
  graph: 0.15,
  personalization: 1,
  auxiliary: 0.25,
  importLinks: 2,
  commonNamesListed: true,
  commonNamesLearned: true,
  chatNeighbourhood: true,
  recency: 0.3,
  recencyWithChatFiles: false,
  coChange: 0.3,
};

/** A task's text, and the lexical tables (over the same files as the identifier tables) it is scored on. */
export interface RankedTask {
  text: TaskText;
  lexical: LexicalTables;
}

export interface TaskRankOptions extends RankOptions {
  task: RankedTask | null;
  tests: TestFiles;
  signals: TaskSignals;
  /** The repository's recent history, for the git signals; null: none. */
  history: GitHistory | null;
  /** Ranks only the best `limit` definitions (a map shows far fewer than a repository holds); the ranking says when it is cut. */
  limit?: number;
  /** Where a cut ranking of a request that personalizes nothing is looked up first, and kept. */
  rankingCache?: RankingCache;
}

/** What a test's score is multiplied by, when tests are demoted. */
const TEST_FACTOR = 0.3;
/** Files whose lexical score personalizes PageRank. */
const PERSONALIZED_FILES = 10;
/** A definition's floor within its file: the file's best is 1. */
const DEFINITION_FLOOR = 0.25;
/** A definition whose name the text mentions. */
const MENTIONED_DEFINITION = 2;
/** What each further definition of a file is worth against the one before it. */
const DECAY = 0.8;
/** Types say what a repository is about; members and values say less. Kinds as the queries name them. */
const KIND_WEIGHTS: Readonly<Record<string, number>> = {
  class: 2,
  interface: 2,
  enum: 1.5,
  type: 1.2,
  module: 1,
  function: 1,
  macro: 1,
  constructor: 0.8,
  method: 0.8,
  constant: 0.5,
  variable: 0.5,
};

export function rankForTask(tables: IdentifierTables, options: TaskRankOptions): Ranking {
  const keptKey = options.rankingCache && keptRankingKey(options);
  const kept = keptKey ? options.rankingCache!.keptRanking(keptKey) : undefined;
  if (kept) return keptRankingOf(tables, kept, options.tests);
  const fileCount = tables.paths.length;
  const roleFactors = roleFactorsOf(tables, options.tests, options.signals.auxiliary);
  const parts = options.explain ? noParts(fileCount) : undefined;
  const lexical = options.task ? lexicalScores(tables, options.task.lexical, options.task.text, options.signals, options.tests === 'include', parts) : null;
  const extraPersonalization = lexical ? topShares(lexical, PERSONALIZED_FILES, options.signals.personalization) : undefined;
  const identFactors = commonNameFactors(tables, { listed: options.signals.commonNamesListed, learned: options.signals.commonNamesLearned }) ?? undefined;
  const graph = graphScores(tables, { ...options, extraPersonalization, identFactors, importLinkWeight: options.signals.importLinks });

  const graphRanks = graph.ranks.slice();
  normalize(graphRanks);
  const chat = graph.isChat;
  const { recency, coChange } = historySignals(tables, options, chat);
  const fileScores = new Float64Array(fileCount);
  for (let file = 0; file < fileCount; file++) {
    let score = lexical ? lexical[file]! + options.signals.graph * graphRanks[file]! : graphRanks[file]!;
    if (recency) score *= 1 + options.signals.recency * recency[file]!;
    if (coChange) score += options.signals.coChange * coChange[file]!;
    fileScores[file] = roleFactors[file]! * score;
  }
  if (parts) {
    for (let file = 0; file < fileCount; file++) {
      parts.graph[file] = lexical ? options.signals.graph * graphRanks[file]! : graphRanks[file]!;
      if (recency) parts.recency[file] = 1 + options.signals.recency * recency[file]!;
      if (coChange) parts.coChange[file] = options.signals.coChange * coChange[file]!;
    }
    parts.role = roleFactors;
    parts.incoming = graph.slotScores;
  }
  const hiddenFiles = hiddenFilesOf(tables, options.tests);
  const leftOut = (file: number) => chat[file] === 1 || hiddenFiles?.[file] === 1;

  const mentioned = new Uint8Array(tables.identNames.length);
  for (const word of options.task?.text.words ?? []) {
    const ident = identOf(tables, word);
    if (ident >= 0) mentioned[ident] = 1;
  }
  const worth = definitionWorth(tables, graph.slotScores, mentioned);
  const { definerFiles } = tables;
  const neighbourhood = options.signals.chatNeighbourhood && chat.includes(1);
  // The chat files' neighbourhood needs every definition's score; a cut ranking without it, only the best's.
  const best =
    options.limit !== undefined && !neighbourhood ? bestDefinitions(definerFiles, worth, fileScores, (file) => !leftOut(file), DECAY, options.limit) : null;
  const slotScores = best ? best.scores : definitionScores(tables, worth, fileScores);
  const slots = best ? best.slots : orderByScore(slotScores, (slot) => !leftOut(definerFiles[slot]!), options.limit);
  const complete = options.limit === undefined || slots.length < options.limit;
  const files = orderByScore(fileScores, (file) => !leftOut(file));
  const entryCodes = new EntryList(tables);
  if (neighbourhood) chatNeighbourhood(tables, chat, slotScores, fileScores, leftOut, entryCodes);
  for (const slot of slots) entryCodes.add(slot as EntryCode);
  // Files listed bare come after every definition: a cut list stops before them.
  if (complete) for (const file of files) entryCodes.add(bareFileEntry(file));
  if (keptKey) {
    const { iterations, converged } = graph;
    options.rankingCache!.keepRanking(keptKey, {
      slots,
      slotScores: Float64Array.from(slots, (slot) => slotScores[slot]!),
      files,
      fileScores,
      complete,
      iterations,
      converged,
    });
  }

  return {
    personalization: graph.personalization,
    fileRanks: Array.from(
      files.filter((file) => fileScores[file]! > 0),
      (file) => ({ path: tables.paths[file]!, rank: fileScores[file]! }),
    ),
    definitionSlots: slots,
    slotScores,
    entryCodes: entryCodes.codes,
    hiddenFiles,
    complete,
    edgeCount: tables.edgeCount,
    pageRankIterations: graph.iterations,
    converged: graph.converged,
    scoreParts: parts,
  };
}

/** The key a request's ranking is kept under, when it personalizes nothing and is cut; null otherwise. */
function keptRankingKey(options: TaskRankOptions): string | null {
  const personalizes =
    options.task !== null ||
    (options.chatFiles?.size ?? 0) > 0 ||
    (options.mentionedFiles?.size ?? 0) > 0 ||
    (options.mentionedIdents?.size ?? 0) > 0 ||
    (options.anchors?.size ?? 0) > 0;
  if (personalizes || options.explain || options.limit === undefined) return null;
  const { tests, signals, limit, history } = options;
  return rankingKey({ tests, signals, pageRank: options.pageRank ?? DEFAULT_PAGERANK, limit, history });
}

/** The ranking a request met before, on these tables, as rankForTask made it then. */
function keptRankingOf(tables: IdentifierTables, kept: KeptRanking, tests: TestFiles): Ranking {
  const slotScores = new Float64Array(tables.definerFiles.length);
  kept.slots.forEach((slot, i) => {
    slotScores[slot] = kept.slotScores[i]!;
  });
  const entryCodes = new EntryList(tables);
  for (const slot of kept.slots) entryCodes.add(slot as EntryCode);
  if (kept.complete) for (const file of kept.files) entryCodes.add(bareFileEntry(file));
  return {
    personalization: new Map(),
    fileRanks: Array.from(
      kept.files.filter((file) => kept.fileScores[file]! > 0),
      (file) => ({ path: tables.paths[file]!, rank: kept.fileScores[file]! }),
    ),
    definitionSlots: kept.slots,
    slotScores,
    entryCodes: entryCodes.codes,
    hiddenFiles: hiddenFilesOf(tables, tests),
    complete: kept.complete,
    edgeCount: tables.edgeCount,
    pageRankIterations: kept.iterations,
    converged: kept.converged,
  };
}

function hiddenFilesOf(tables: IdentifierTables, tests: TestFiles): Uint8Array | undefined {
  return tests === 'exclude' ? Uint8Array.from(tables.fileRoles, (role) => (role === TEST ? 1 : 0)) : undefined;
}

/** Parts to fill in: every signal off until the ranking sets it. */
function noParts(fileCount: number): FileScoreParts {
  const none = () => new Float64Array(fileCount);
  return {
    text: none(),
    names: none(),
    mentionedPaths: none(),
    mentionedNames: none(),
    graph: none(),
    recency: none().fill(1),
    coChange: none(),
    role: none().fill(1),
    incoming: new Float64Array(0),
  };
}

/**
 * The ranked list, each entry once, each file named before its first definition: a budget too
 * small for a file's definitions still lists the file.
 */
class EntryList {
  readonly codes: EntryCode[] = [];
  private readonly slotTaken: Uint8Array;
  private readonly fileTaken: Uint8Array;

  constructor(private readonly tables: IdentifierTables) {
    this.slotTaken = new Uint8Array(tables.definerFiles.length);
    this.fileTaken = new Uint8Array(tables.paths.length);
  }

  add(code: EntryCode): void {
    if (code < 0) {
      this.addFile(-1 - code);
      return;
    }
    if (this.slotTaken[code]) return;
    this.slotTaken[code] = 1;
    this.addFile(this.tables.definerFiles[code]!);
    this.codes.push(code);
  }

  private addFile(file: number): void {
    if (this.fileTaken[file]) return;
    this.fileTaken[file] = 1;
    this.codes.push(bareFileEntry(file));
  }
}

/**
 * What an editor of the chat files needs first, ahead of the ranking: each file they import
 * with its best definition (one the chat files use, when there is one), then the files that
 * import them, named, then every other definition they use from the files they import or their
 * own folders; each group by score.
 */
function chatNeighbourhood(
  tables: IdentifierTables,
  chat: Uint8Array,
  slotScores: Float64Array,
  fileScores: Float64Array,
  leftOut: (file: number) => boolean,
  entries: EntryList,
): void {
  const { paths, importOffsets, importTargets, definerOffsets, definerFiles, referenceOffsets, referenceFiles } = tables;
  const fileCount = paths.length;
  const imported = new Uint8Array(fileCount);
  const importers = new Uint8Array(fileCount);
  for (let file = 0; file < fileCount; file++) {
    for (let at = importOffsets[file]!; at < importOffsets[file + 1]!; at++) {
      const target = importTargets[at]!;
      if (chat[file]) imported[target] = 1;
      if (chat[target]) importers[file] = 1;
    }
  }
  const chatFolders = new Set<string>();
  for (let file = 0; file < fileCount; file++) if (chat[file]) chatFolders.add(folderOf(paths[file]!));
  const near = (file: number) => !leftOut(file) && (imported[file] === 1 || chatFolders.has(folderOf(paths[file]!)));

  // Slots the chat files use: definitions, in files they import or sit beside, of names they reference.
  const used: number[] = [];
  const bestUsed = new Int32Array(fileCount).fill(-1);
  const identCount = definerOffsets.length - 1;
  for (let ident = 0; ident < identCount; ident++) {
    let referencedByChat = false;
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]! && !referencedByChat; r++) referencedByChat = chat[referenceFiles[r]!] === 1;
    if (!referencedByChat) continue;
    for (let slot = definerOffsets[ident]!; slot < definerOffsets[ident + 1]!; slot++) {
      const file = definerFiles[slot]!;
      if (!near(file)) continue;
      used.push(slot);
      const best = bestUsed[file]!;
      if (best < 0 || slotScores[slot]! > slotScores[best]!) bestUsed[file] = slot;
    }
  }
  const bestSlot = new Int32Array(fileCount).fill(-1);
  for (let slot = 0; slot < definerFiles.length; slot++) {
    const file = definerFiles[slot]!;
    const best = bestSlot[file]!;
    if (best < 0 || slotScores[slot]! > slotScores[best]!) bestSlot[file] = slot;
  }
  const byScore = (list: number[]) => list.sort((a, b) => fileScores[b]! - fileScores[a]! || a - b);
  const importedFiles = byScore([...imported.keys()].filter((file) => imported[file] && !leftOut(file)));
  for (const file of importedFiles) {
    const slot = bestUsed[file]! >= 0 ? bestUsed[file]! : bestSlot[file]!;
    entries.add((slot >= 0 ? slot : bareFileEntry(file)) as EntryCode);
  }
  for (const file of byScore([...importers.keys()].filter((file) => importers[file] && !leftOut(file)))) entries.add(bareFileEntry(file));
  used.sort((a, b) => slotScores[b]! - slotScores[a]! || a - b);
  for (const slot of used) entries.add(slot as EntryCode);
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Each file's lexical score: its signals, each normalised by its maximum, summed (and each kept in `parts` when given). */
function lexicalScores(
  tables: IdentifierTables,
  postings: LexicalTables,
  task: TaskText,
  signals: TaskSignals,
  testsIncluded: boolean,
  parts?: FileScoreParts,
): Float64Array {
  const fileCount = tables.paths.length;
  // Tests would win on the words of an issue, which they repeat, and docs and examples on its
  // prose: they set no statistics and score only by the graph (bench/quality: 2 points of Acc@5).
  const excluded = Uint8Array.from(tables.fileRoles, (role) => (role === AUXILIARY || (role === TEST && !testsIncluded) ? 1 : 0));
  const total = new Float64Array(fileCount);
  const add = (weight: number, scores: () => Float64Array, part?: Float64Array) => {
    if (weight === 0) return;
    const signal = scores();
    normalize(signal);
    for (let file = 0; file < fileCount; file++) total[file]! += weight * signal[file]!;
    if (part) for (let file = 0; file < fileCount; file++) part[file] = weight * signal[file]!;
  };
  add(
    signals.textBm25,
    () => {
      const scores = bm25Scores(postingsOf(postings, 'text'), task.termHashes, task.termWeights, excluded);
      if (signals.pathTerms > 0) {
        const pathScores = bm25Scores(postingsOf(postings, 'path'), task.termHashes, task.termWeights, excluded);
        for (let file = 0; file < fileCount; file++) scores[file]! += signals.pathTerms * pathScores[file]!;
      }
      return scores;
    },
    parts?.text,
  );
  add(signals.nameBm25, () => bm25Scores(postingsOf(postings, 'names'), task.termHashes, task.termWeights, excluded), parts?.names);
  add(signals.mentionedPaths, () => mentionedPathScores(tables.paths, task.paths), parts?.mentionedPaths);
  add(signals.mentionedNames, () => mentionedNameScores(tables, signals.codeWordsOnly ? task.codeWords : task.words), parts?.mentionedNames);
  return total;
}

/** Which git signals weigh in a ranking: recency without chat files (or with them, when asked), co-change with them. */
export function gitSignalsUsed(signals: TaskSignals, hasChatFiles: boolean): { recency: boolean; coChange: boolean } {
  return { recency: signals.recency > 0 && (!hasChatFiles || signals.recencyWithChatFiles), coChange: signals.coChange > 0 && hasChatFiles };
}

/**
 * The git signals, per file, each from 0 to 1 (null when off or without history): recency on a
 * log scale, as a factor, so only a file the ranking reaches otherwise gains from it (measured
 * on the issue sets: better than a sum, which lets in files that change often whatever the
 * task); co-change with the chat files, normalised, added (a file changed with a chat file
 * needs no other reason).
 */
function historySignals(tables: IdentifierTables, options: TaskRankOptions, chat: Uint8Array): { recency: Float64Array | null; coChange: Float64Array | null } {
  const { history, signals } = options;
  if (!history) return { recency: null, coChange: null };
  const used = gitSignalsUsed(signals, chat.includes(1));
  let recency: Float64Array | null = null;
  if (used.recency) {
    recency = recencyScores(history, tables.paths);
    for (let file = 0; file < recency.length; file++) recency[file] = Math.log1p(recency[file]!);
    normalize(recency);
  }
  let coChange: Float64Array | null = null;
  if (used.coChange) {
    coChange = coChangeScores(history, tables.paths, chat);
    normalize(coChange);
  }
  return { recency, coChange };
}

/**
 * Per file, how well the paths and qualified names of the text match its path: the number of
 * trailing path segments matched, for the best mention (`a.b.C` is read as `a/b/C`). The paths of
 * the files whose name the text mentions make a trie read from the name up, and each mention is
 * walked down it: the work is the files' paths plus the text's segments times the depth they
 * match, never files × mentions.
 */
export function mentionedPathScores(paths: readonly string[], mentions: readonly string[]): Float64Array {
  const scores = new Float64Array(paths.length);
  const forms = mentions.map(mentionSegments).filter((form) => form.length > 0);
  if (forms.length === 0) return scores;
  const named = new Set(forms.flat());
  const children: Map<string, number>[] = [new Map()];
  const parents: number[] = [-1];
  const fileNodes = new Map<number, number>();
  paths.forEach((path, file) => {
    const segments = path.split('/');
    const last = segments.length - 1;
    segments[last] = stripExtension(segments[last]!);
    if (!named.has(segments[last]!)) return;
    let node = 0;
    for (let i = last; i >= 0; i--) {
      let child = children[node]!.get(segments[i]!);
      if (child === undefined) {
        child = children.length;
        children.push(new Map());
        parents.push(node);
        children[node]!.set(segments[i]!, child);
      }
      node = child;
    }
    fileNodes.set(file, node);
  });
  // Per node, the best score of a file whose path goes through it.
  const best = new Float64Array(children.length);
  for (const form of forms) {
    // A qualified name may go on past the file (`mod.Class.method`): from its last place holding each name.
    const started = new Set<string>();
    for (let end = form.length; end > 0; end--) {
      if (started.has(form[end - 1]!)) continue;
      started.add(form[end - 1]!);
      const whole = end === form.length ? 0.5 : 0;
      let node = 0;
      for (let i = end - 1; i >= 0; i--) {
        const child = children[node]!.get(form[i]!);
        if (child === undefined) break;
        node = child;
        best[node] = Math.max(best[node]!, end - i + whole);
      }
    }
  }
  // Parents come before their children: each node takes the best on the path down to it.
  for (let node = 1; node < best.length; node++) best[node] = Math.max(best[node]!, best[parents[node]!]!);
  for (const [file, node] of fileNodes) scores[file] = best[node]!;
  return scores;
}

/** A mention's path segments, `a.b.C` read as `a/b/C`, its last without an extension. */
function mentionSegments(mention: string): string[] {
  const slashed = mention.includes('/') ? mention : mention.replaceAll('.', '/');
  const form = slashed.split('/').filter((segment) => segment.length > 0);
  if (form.length > 0) form[form.length - 1] = stripExtension(form[form.length - 1]!);
  return form;
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Per file, Σ over the text's words it defines of 1/(files defining the word): a rare defined name says most. */
function mentionedNameScores(tables: IdentifierTables, words: readonly string[]): Float64Array {
  const scores = new Float64Array(tables.paths.length);
  const { definerOffsets, definerFiles } = tables;
  for (const word of words) {
    const ident = identOf(tables, word);
    if (ident < 0) continue;
    const definers = definerOffsets[ident + 1]! - definerOffsets[ident]!;
    for (let slot = definerOffsets[ident]!; slot < definerOffsets[ident + 1]!; slot++) scores[definerFiles[slot]!]! += 1 / definers;
  }
  return scores;
}

/**
 * A definition's worth within its file: its place in the graph's scores, above a floor (the
 * file's best is 1); its kind; doubled when the text names it.
 */
function definitionWorth(tables: IdentifierTables, graphSlotScores: Float64Array, mentioned: Uint8Array): Float64Array {
  const { definerFiles, slotIdents, lineOffsets, definitionKinds, kindNames } = tables;
  const slotCount = definerFiles.length;
  const best = new Float64Array(tables.paths.length);
  for (let slot = 0; slot < slotCount; slot++) {
    const file = definerFiles[slot]!;
    if (graphSlotScores[slot]! > best[file]!) best[file] = graphSlotScores[slot]!;
  }
  const kindWeights = Float64Array.from(kindNames, (kind) => KIND_WEIGHTS[kind] ?? 1);
  const worth = new Float64Array(slotCount);
  for (let slot = 0; slot < slotCount; slot++) {
    const file = definerFiles[slot]!;
    const within = best[file]! > 0 ? graphSlotScores[slot]! / best[file]! : 0;
    let kindWeight = 0;
    for (let at = lineOffsets[slot]!; at < lineOffsets[slot + 1]!; at++) kindWeight = Math.max(kindWeight, kindWeights[definitionKinds[at]!]!);
    const boost = mentioned[slotIdents[slot]!] ? MENTIONED_DEFINITION : 1;
    worth[slot] = (DEFINITION_FLOOR + (1 - DEFINITION_FLOOR) * within) * kindWeight * boost;
  }
  return worth;
}

/**
 * Every definition's score: its file's, times its worth, times DECAY for each definition of the
 * file worth more: a file's second-best waits for other files' best, so a map shows more files
 * and the types that define a repository before a file's every member (see bestDefinitions for
 * the best few alone).
 */
function definitionScores(tables: IdentifierTables, worth: Float64Array, fileScores: Float64Array): Float64Array {
  const { definerFiles } = tables;
  const slotCount = definerFiles.length;
  // Slots by file, best first: a file's slots are not adjacent in the tables (they are grouped by name).
  const order = groupInOrder(orderByScore(worth), definerFiles, tables.paths.length);
  const scores = new Float64Array(slotCount);
  let place = 0;
  for (let i = 0; i < slotCount; i++) {
    const slot = order[i]!;
    place = i > 0 && definerFiles[order[i - 1]!] === definerFiles[slot] ? place + 1 : 0;
    scores[slot] = fileScores[definerFiles[slot]!]! * worth[slot]! * DECAY ** place;
  }
  return scores;
}

const TEST = FILE_ROLES.indexOf('test');
const AUXILIARY = FILE_ROLES.indexOf('auxiliary');

function roleFactorsOf(tables: IdentifierTables, tests: TestFiles, auxiliary: number): Float64Array {
  const testFactor = tests === 'include' ? 1 : tests === 'exclude' ? 0 : TEST_FACTOR;
  return Float64Array.from(tables.fileRoles, (role) => (role === TEST ? testFactor : role === AUXILIARY ? auxiliary : 1));
}

/** The `count` best scores as shares summing to `total` (in chat files' personalization), the rest 0. */
function topShares(scores: Float64Array, count: number, total: number): Float64Array {
  const order = orderByScore(scores);
  const shares = new Float64Array(scores.length);
  let sum = 0;
  for (let i = 0; i < Math.min(count, order.length); i++) sum += scores[order[i]!]!;
  if (sum === 0) return shares;
  for (let i = 0; i < Math.min(count, order.length); i++) shares[order[i]!] = (total * scores[order[i]!]!) / sum;
  return shares;
}

function normalize(scores: Float64Array): void {
  let max = 0;
  for (const score of scores) if (score > max) max = score;
  if (max > 0) for (let i = 0; i < scores.length; i++) scores[i]! /= max;
}
