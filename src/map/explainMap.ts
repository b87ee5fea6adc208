import { termCountIn } from '../lexical/postings.js';
import type { TaskText } from '../lexical/taskText.js';
import { forEachTerm, termHash } from '../lexical/terms.js';
import type { EntryCode } from '../rank/entryCodes.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { postingsOf } from '../rank/lexicalTables.js';
import type { Ranking } from '../rank/rankDefinitions.js';
import { mentionedPathScores, type RankedTask } from '../rank/rankForTask.js';
import type { FileScoreParts } from '../rank/scoreParts.js';
import { definerSlots, fileIdOf, fileOfSlot, importersOf, importsOf, linesOfSlot, nameOfSlot, pathOfFile, slotsOfFiles } from '../rank/tableLookups.js';
import type { ShownFile } from './shownMap.js';

/**
 * `map --explain`: per shown file why it ranks where it does, from the parts the ranking kept of
 * its score (FileScoreParts) and what it matched; and what the budget cut: the entries that come
 * next in the ranked list, each with what adding it to the map would cost.
 */

/** How many of a file's importers, imports and incoming names an explanation names, and how many cut entries it lists. */
export const EXPLAIN_LISTED = 5;

export type ChatRelation = 'imported by a chat file' | 'imports a chat file' | 'beside a chat file';

export interface FileExplanation {
  path: string;
  /** Why the map holds it: anchored (`--anchor`), one of the important files the map opens with, or by its rank. */
  shownFor: 'anchor' | 'important file' | 'rank';
  /** Its 1-based place among the ranking's files (0: the ranking gave it no rank). */
  place: number;
  rank: number;
  /** rank = role × ((text + names + mentionedPaths + mentionedNames + graph) × recency + coChange); see FileScoreParts. */
  parts: Record<Exclude<keyof FileScoreParts, 'incoming'>, number>;
  /** The task's terms found in its text, path or defined names (when BM25 scored it). */
  queryTerms: string[];
  /** The paths and qualified names of the task's text that match its path. */
  mentionedPaths: string[];
  /** The names the task's text mentions that it defines. */
  mentionedNames: string[];
  /** A file mentioned with `--mention-file`. */
  mentionedFile: boolean;
  /** The `--mention-ident` names it defines or its path holds. */
  mentionedIdents: string[];
  /** Its share of anchor weight (1 per anchor naming it). */
  anchor: number;
  chat: ChatRelation[];
  /** The files it imports (resolved) and that import it, best ranked first, at most EXPLAIN_LISTED of each. */
  imports: string[];
  importedBy: string[];
  /** The names it defines that bring it the most rank from the files referencing them, with that rank. */
  incoming: { name: string; weight: number }[];
}

export interface CutEntry {
  path: string;
  /** The definitions' name; null for a file listed by its path. */
  name: string | null;
  lines: number[];
  /** What the map would grow by with this entry added to it (alone). */
  tokens: number;
  /** Whether that is within the budget: the packer stops once a map is within 15% of it, so the next entry may fit. */
  fits: boolean;
}

export interface MapExplanation {
  files: FileExplanation[];
  cut: { budget: number; tokens: number; next: CutEntry[] };
}

/** What a map was asked and met, beyond the ranking: what the explanations read. */
export interface ExplainContext {
  tables: IdentifierTables;
  ranking: Ranking;
  shown: readonly ShownFile[];
  /** The task's text ('' for none, and for aider's ranking, which reads none). */
  query: string;
  task: RankedTask | null;
  /** The task's words it reads as names it mentions (TaskSignals.codeWordsOnly: the code words). */
  mentionWords: readonly string[];
  chatFiles: ReadonlySet<string>;
  mentionedFiles: ReadonlySet<string>;
  mentionedIdents: ReadonlySet<string>;
  anchors: ReadonlyMap<string, number>;
  /** The important files the map opens with (see importantFiles.ts). */
  isImportant: (path: string) => boolean;
}

export function explainFiles(context: ExplainContext): FileExplanation[] {
  const { tables, ranking, shown } = context;
  const parts = ranking.scoreParts;
  if (!parts) throw new Error('the ranking kept no score parts: rank with explain');
  const places = new Map(ranking.fileRanks.map(({ path }, i) => [path, i + 1]));
  const fileIds = shown.map((file) => fileIdOf(tables, file.path)!);
  const slots = slotsOfFiles(tables, new Set(fileIds));
  const { task } = context;
  const terms = context.query !== '' && task ? taskTerms(context.query, task.text) : [];
  const chatIds = [...context.chatFiles].map((path) => fileIdOf(tables, path)!);
  const chatFolders = new Set([...context.chatFiles].map(folderOf));
  const byRank = (files: Iterable<number>) =>
    [...files]
      .sort((a, b) => (places.get(pathOfFile(tables, a)) ?? Infinity) - (places.get(pathOfFile(tables, b)) ?? Infinity) || a - b)
      .slice(0, EXPLAIN_LISTED)
      .map((file) => pathOfFile(tables, file));

  return shown.map(({ path, rank }, i) => {
    const file = fileIds[i]!;
    const lexical = parts.text[file]! + parts.names[file]! > 0;
    const chat: ChatRelation[] = [];
    if (chatIds.some((chatFile) => importsOf(tables, chatFile).includes(file))) chat.push('imported by a chat file');
    if (importsOf(tables, file).some((target) => context.chatFiles.has(pathOfFile(tables, target)))) chat.push('imports a chat file');
    if (chatFolders.has(folderOf(path))) chat.push('beside a chat file');
    return {
      path,
      shownFor: context.anchors.has(path) ? 'anchor' : context.isImportant(path) ? 'important file' : 'rank',
      place: places.get(path) ?? 0,
      rank,
      parts: {
        text: parts.text[file]!,
        names: parts.names[file]!,
        mentionedPaths: parts.mentionedPaths[file]!,
        mentionedNames: parts.mentionedNames[file]!,
        graph: parts.graph[file]!,
        recency: parts.recency[file]!,
        coChange: parts.coChange[file]!,
        role: parts.role[file]!,
      },
      queryTerms:
        lexical && task ? terms.filter((term) => TERM_FIELDS.some((field) => termCountIn(postingsOf(task.lexical, field), termHash(term), file) > 0)) : [],
      mentionedPaths: parts.mentionedPaths[file]! > 0 ? (task?.text.paths ?? []).filter((mention) => mentionedPathScores([path], [mention])[0]! > 0) : [],
      mentionedNames: parts.mentionedNames[file]! > 0 ? context.mentionWords.filter((word) => defines(tables, file, word)) : [],
      mentionedFile: context.mentionedFiles.has(path),
      mentionedIdents: [...context.mentionedIdents].filter((name) => defines(tables, file, name) || pathNames(path).includes(name)),
      anchor: context.anchors.get(path) ?? 0,
      chat,
      imports: byRank(new Set(importsOf(tables, file))),
      importedBy: byRank(importersOf(tables, file)),
      incoming: (slots.get(file) ?? [])
        .map((slot) => ({ name: nameOfSlot(tables, slot), weight: parts.incoming[slot] ?? 0 }))
        .filter(({ weight }) => weight > 0)
        .sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : 1))
        .slice(0, EXPLAIN_LISTED),
    };
  });
}

/** Where BM25 looks for the task's terms. */
const TERM_FIELDS = ['text', 'path', 'names'] as const;

/**
 * The next entries of the ranked list after the map's `shownCount`, each with what the map
 * would grow by with it alone added: `tokensWith` renders the shown entries and one more.
 */
export async function cutEntries(
  tables: IdentifierTables,
  next: readonly EntryCode[],
  tokensWith: (code: EntryCode) => Promise<number>,
  budget: number,
  tokens: number,
): Promise<MapExplanation['cut']> {
  const entries: CutEntry[] = [];
  for (const code of next.slice(0, EXPLAIN_LISTED)) {
    const grown = (await tokensWith(code)) - tokens;
    const slot = code >= 0 ? code : -1;
    entries.push({
      path: pathOfFile(tables, slot >= 0 ? fileOfSlot(tables, slot) : -1 - code),
      name: slot >= 0 ? nameOfSlot(tables, slot) : null,
      lines: slot >= 0 ? Array.from(linesOfSlot(tables, slot)) : [],
      tokens: grown,
      fits: tokens + grown <= budget,
    });
  }
  return { budget, tokens, next: entries };
}

/** The explanation as `map --explain` prints it on stderr, a few lines per file. */
export function explanationText(explanation: MapExplanation): string {
  const lines: string[] = ['repomap: explain: why each shown file ranks where it does'];
  const number = (value: number) => Number(value.toPrecision(3)).toString();
  for (const file of explanation.files) {
    const { parts } = file;
    const shownFor = file.shownFor === 'rank' ? '' : `, shown as ${file.shownFor === 'anchor' ? 'an anchor' : 'an important file'}`;
    lines.push(`${file.path}: ${file.place > 0 ? `#${file.place} in the ranking` : 'unranked'}, rank ${number(file.rank)}${shownFor}`);
    const signals = (['text', 'names', 'mentionedPaths', 'mentionedNames', 'graph'] as const)
      .filter((key) => parts[key] > 0)
      .map((key) => `${key} ${number(parts[key])}`);
    if (parts.recency !== 1) signals.push(`× recency ${number(parts.recency)}`);
    if (parts.coChange > 0) signals.push(`+ co-change ${number(parts.coChange)}`);
    if (parts.role !== 1) signals.push(`× role ${number(parts.role)}`);
    if (signals.length > 0) lines.push(`  score: ${signals.join(', ')}`);
    if (file.queryTerms.length > 0) lines.push(`  query terms: ${file.queryTerms.join(', ')}`);
    if (file.mentionedPaths.length > 0) lines.push(`  mentioned paths: ${file.mentionedPaths.join(', ')}`);
    if (file.mentionedNames.length > 0) lines.push(`  mentioned names: ${file.mentionedNames.join(', ')}`);
    if (file.mentionedFile) lines.push('  mentioned file');
    if (file.mentionedIdents.length > 0) lines.push(`  mentioned identifiers: ${file.mentionedIdents.join(', ')}`);
    if (file.anchor > 0) lines.push(`  anchor ${number(file.anchor)}`);
    if (file.chat.length > 0) lines.push(`  ${file.chat.join(', ')}`);
    if (file.imports.length > 0) lines.push(`  imports: ${file.imports.join(', ')}`);
    if (file.importedBy.length > 0) lines.push(`  imported by: ${file.importedBy.join(', ')}`);
    if (file.incoming.length > 0) lines.push(`  incoming: ${file.incoming.map(({ name, weight }) => `${name} ${number(weight)}`).join(', ')}`);
  }
  const { budget, tokens, next } = explanation.cut;
  lines.push(`repomap: explain: the map holds ${tokens} of ${budget} tokens; next in the ranking:`);
  for (const entry of next) {
    const what = entry.name === null ? entry.path : `${entry.path} ${entry.name} (line ${entry.lines.join(', ')})`;
    lines.push(`  ${what}: +${entry.tokens} tokens${entry.fits ? ' (would fit: the packer stops within 15% of the budget)' : ''}`);
  }
  if (next.length === 0) lines.push('  nothing: the map holds the whole ranking');
  return `${lines.join('\n')}\n`;
}

/** The task's distinct terms as BM25 weighed them, in the order the text has them. */
function taskTerms(query: string, task: TaskText): string[] {
  const weighed = new Set(task.termHashes);
  const terms = new Set<string>();
  forEachTerm(query, (term) => {
    if (weighed.has(termHash(term))) terms.add(term);
  });
  return [...terms];
}

function defines(tables: IdentifierTables, file: number, name: string): boolean {
  return definerSlots(tables, name).some((slot) => fileOfSlot(tables, slot) === file);
}

/** The names a path holds for aider's mentioned-identifier rule: its folders, its base name, its base name without extension. */
function pathNames(path: string): string[] {
  const parts = path.split('/');
  const base = parts[parts.length - 1]!;
  const dot = base.lastIndexOf('.');
  return [...parts, dot > 0 ? base.slice(0, dot) : base];
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}
