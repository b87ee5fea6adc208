import { forEachTerm, termHash } from './terms.js';

/**
 * What a task's text (an issue, a request) says, for ranking: its terms, weighted (the first
 * line, a title, twice), the words that may be identifiers, and the paths or qualified names it
 * mentions (`a/b/c.py`, `pkg.mod.Class`, stack frames).
 */
export interface TaskText {
  /** Distinct term hashes and their weights: occurrences, the first line's counted twice. */
  termHashes: Int32Array;
  termWeights: Float64Array;
  /** Distinct words that may name an identifier, as written. */
  words: string[];
  /**
   * Those of them written as code: in a code block, backticks or double quotes (code, error
   * messages), before `(`, or shaped as identifiers (an `_`, a capital after the first letter, a
   * digit after a letter); not prose that happens to name something (`left`, `default`, `Sphinx`).
   */
  codeWords: string[];
  /** Path-like mentions, `/`-separated, without a leading `./` or `/`. */
  paths: string[];
}

/** English words too common to say anything about code. */
const STOPWORDS = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now old see two way who did get got let put say she too use this that with have from they will would there their what about which when make like time just know take into your some could them than then these other only also been were more most such well should where while does after before because being here want need each very using used same both even much many able'.split(
    ' ',
  ),
);

// Every pattern here costs time linear in the text (a task's text may be a megabyte of one
// word): none starts with a repetition that could fail after it, at each of a run's characters.
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;
/** Code blocks, code spans and quotations. */
const CODE = /```[\s\S]*?```|`[^`\n]+`|"[^"\n]+"/g;
/** For a WORD match: an `_`, a capital after its first character, a digit after a letter. */
const IDENTIFIER_SHAPED = /_|.[A-Z]|[A-Za-z][0-9]/;
const PATH_CHARS = /[A-Za-z0-9_.\-/\\]+/g;
/** What makes a run of path characters path-like: a `/` or a `.` between word characters. */
const PATH_STEP = /[A-Za-z0-9_][/\\.][A-Za-z0-9_]/;
const OPEN_PARENTHESIS = 40;

export function readTaskText(text: string): TaskText {
  const weights = new Map<number, number>();
  const newline = text.indexOf('\n');
  const title = newline < 0 ? text : text.slice(0, newline);
  const add = (weight: number) => (term: string) => {
    if (STOPWORDS.has(term)) return;
    const hash = termHash(term);
    weights.set(hash, (weights.get(hash) ?? 0) + weight);
  };
  forEachTerm(text, add(1));
  forEachTerm(title, add(1));
  const termHashes = Int32Array.from(weights.keys());
  const termWeights = Float64Array.from(weights.values());

  const words = new Set<string>();
  const called: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const [word] = match;
    if (word.length < 3 || STOPWORDS.has(word.toLowerCase())) continue;
    words.add(word);
    if (text.charCodeAt(match.index + word.length) === OPEN_PARENTHESIS) called.push(word);
  }
  const paths = new Set<string>();
  for (const [raw] of text.matchAll(PATH_CHARS)) {
    if (!PATH_STEP.test(raw)) continue;
    const path = trimPath(raw.replaceAll('\\', '/'));
    if (path.includes('/') || path.split('.').length >= 2) paths.add(path);
  }
  const codeWords = new Set([...words].filter((word) => IDENTIFIER_SHAPED.test(word)));
  for (const [code] of text.matchAll(CODE)) for (const [word] of code.matchAll(WORD)) if (words.has(word)) codeWords.add(word);
  for (const word of called) codeWords.add(word);
  return { termHashes, termWeights, words: [...words], codeWords: [...codeWords], paths: [...paths] };
}

/** Without leading `.` and `/` (`./a`, `/a`) and trailing `.`, `-`, `/` (a sentence's end). */
function trimPath(path: string): string {
  let start = 0;
  while (start < path.length && (path[start] === '.' || path[start] === '/')) start++;
  let end = path.length;
  while (end > start && (path[end - 1] === '.' || path[end - 1] === '-' || path[end - 1] === '/')) end--;
  return path.slice(start, end);
}
