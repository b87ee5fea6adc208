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
    'no-name-bm25': { nameBm25: 0 },
    'no-mentioned-paths': { mentionedPaths: 0 },
    'no-mentioned-names': { mentionedNames: 0 },
    'no-graph': { graph: 0 },
    'no-import-links': { importLinks: 0 },
    'no-common-names': { commonNamesListed: false, commonNamesLearned: false },
    'no-listed-common-names': { commonNamesListed: false },
    'no-learned-common-names': { commonNamesLearned: false },
    'no-chat-neighbourhood': { chatNeighbourhood: false },
  }),
  { name: 'task-tests-include', request: ({ text }) => ({ query: text, tests: 'include' }) },
];

function ablations(table: Record<string, Partial<TaskSignals>>): Variant[] {
  return Object.entries(table).map(([name, signals]) => ({ name: `task-${name}`, request: ({ text }) => ({ query: text, signals }) }));
}
