import type { MapRequest } from '../../src/options/libraryOptions.js';
import type { TaskSignals } from '../../src/rank/rankForTask.js';
import { longWords, mentionedFiles, mentionedIdentifiers, type Vocabulary } from './mentions.js';

/**
 * The map requests the quality harness compares: each a name and a function of the task's text
 * (and of the repository's vocabulary, to match mentions against). Add a line to measure more.
 */

export interface Task extends Vocabulary {
  /** The text; '' on the corpus slices, where a chat file is the task. */
  text: string;
}

export interface Variant {
  name: string;
  /**
   * Measured only on the issues whose fix edits several files, with the one BM25 places best as
   * the chat file (the file an agent would open first): the fix's other files are scored.
   */
  chatOnGold?: boolean;
  request(task: Task): MapRequest;
}

/** Aider's ranking and rendering, as before the task ranking. */
const AIDER = { ranking: 'aider', style: 'aider' } as const;

export const VARIANTS: readonly Variant[] = [
  // The previous measurements (and the README's table): every word of 3 characters or more as an identifier.
  { name: 'aider-words', request: ({ text }) => ({ ...AIDER, mentionedIdents: longWords(text) }) },
  // aider's own reading of a message: identifier and file-name words, and the files it names.
  {
    name: 'aider-mentions',
    request: (task) => ({ ...AIDER, mentionedIdents: mentionedIdentifiers(task.text, task), mentionedFiles: mentionedFiles(task.text, task) }),
  },
  // The default: the text as the query, the signatures style.
  { name: 'task', request: ({ text }) => ({ query: text }) },
  // The task ranking with aider's rendering: what the style alone changes.
  { name: 'task-aider-style', request: ({ text }) => ({ query: text, style: 'aider' }) },
  // Each signal of the task ranking left out, alone: what it adds to the default.
  ...ablations({
    'no-text-bm25': { textBm25: 0 },
    'no-path-terms': { pathTerms: 0 },
    'text-bm25-1': { textBm25: 1 },
    'no-name-bm25': { nameBm25: 0 },
    'no-mentioned-paths': { mentionedPaths: 0 },
    'no-mentioned-names': { mentionedNames: 0 },
    'no-code-words-only': { codeWordsOnly: false },
    'no-graph': { graph: 0 },
    'no-import-links': { importLinks: 0 },
    'no-common-names': { commonNamesListed: false, commonNamesLearned: false },
    'no-listed-common-names': { commonNamesListed: false },
    'no-learned-common-names': { commonNamesLearned: false },
    'no-chat-neighbourhood': { chatNeighbourhood: false },
    // The lexical signals before path terms, code words and the text's 1.2.
    'lexical-before': { textBm25: 1, pathTerms: 0, codeWordsOnly: false },
  }),
  { name: 'task-tests-include', request: ({ text }) => ({ query: text, tests: 'include' }) },
  // The git signals (on by default; the history at the base commit): off, and recency weighed otherwise.
  { name: 'task-no-git', request: ({ text }) => ({ query: text, gitSignals: false }) },
  ...ablations({ 'recency-0.15': { recency: 0.15 }, 'recency-0.6': { recency: 0.6 } }),
  // With one of the fix's files as the chat file: the default (co-change, no recency), without git, with recency too, recency alone, more co-change.
  ...chatVariants({
    'chat-task': {},
    'chat-task-no-git': { gitSignals: false },
    'chat-task-with-recency': { signals: { recencyWithChatFiles: true } },
    'chat-task-recency-only': { signals: { recencyWithChatFiles: true, coChange: 0 } },
    'chat-task-co-change-0.6': { signals: { coChange: 0.6 } },
  }),
];

function chatVariants(table: Record<string, MapRequest>): Variant[] {
  return Object.entries(table).map(([name, request]) => ({ name, chatOnGold: true, request: ({ text }) => ({ query: text, ...request }) }));
}

function ablations(table: Record<string, Partial<TaskSignals>>): Variant[] {
  return Object.entries(table).map(([name, signals]) => ({ name: `task-${name}`, request: ({ text }) => ({ query: text, signals }) }));
}
