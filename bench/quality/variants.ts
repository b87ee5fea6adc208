import type { MapRequest } from '../../src/options/libraryOptions.js';
import { MAP_OPTIONS } from '../../src/options/optionTable.js';
import { longWords, mentionedFiles, mentionedIdentifiers, type Vocabulary } from './mentions.js';

/**
 * The map requests the quality harness compares: each a name and a function of the task's text
 * (and of the repository's vocabulary, to match mentions against). Add a line to measure more.
 */

/** The request fields the task-ranking work adds; declared here so variants can use them before a build has them. */
export interface VariantRequest extends MapRequest {
  query?: string;
  ranking?: 'task' | 'aider';
  tests?: 'include' | 'demote' | 'exclude';
  style?: 'signatures' | 'aider';
}

export interface Task extends Vocabulary {
  /** The text; '' on the corpus slices, where a chat file is the task. */
  text: string;
}

export interface Variant {
  name: string;
  /** Fields the variant means nothing without: it is not run by a build whose map options lack one. */
  requires: readonly (keyof VariantRequest)[];
  request(task: Task): VariantRequest;
}

export const VARIANTS: readonly Variant[] = [
  // The previous measurements (and the README's table): every word of 3 characters or more as an identifier.
  { name: 'aider-words', requires: [], request: ({ text }) => ({ ranking: 'aider', mentionedIdents: longWords(text) }) },
  // aider's own reading of a message: identifier and file-name words, and the files it names.
  {
    name: 'aider-mentions',
    requires: [],
    request: (task) => ({ ranking: 'aider', mentionedIdents: mentionedIdentifiers(task.text, task), mentionedFiles: mentionedFiles(task.text, task) }),
  },
  { name: 'task', requires: ['query'], request: ({ text }) => ({ query: text }) },
];

/** The fields a variant requires that this build's map options (src/options/optionTable.ts) do not know. */
export function unknownFields(variant: Variant): string[] {
  return variant.requires.filter((field) => !(field in MAP_OPTIONS));
}
