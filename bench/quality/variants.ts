import type { MapRequest } from '../../src/options/libraryOptions.js';
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
];
