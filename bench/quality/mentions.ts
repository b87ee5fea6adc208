/** What a task's text mentions, read the ways the variants need (see variants.ts). */

/** Python's `re.split(r'\W+', text)`: `\w` is a letter, a number or `_`. */
export function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}_]+/u).filter((word) => word !== '');
}

/** The previous harness's mentions: every distinct word of at least 3 characters (code points). */
export function longWords(text: string): string[] {
  return [...new Set(wordsOf(text).filter((word) => [...word].length >= 3))].sort();
}

/** A repository as mention matching sees it: its files and every identifier its tags hold. */
export interface Vocabulary {
  paths: readonly string[];
  identifiers: ReadonlySet<string>;
}

/** Each folder name, basename and basename without its extension of the paths. */
export function pathComponents(paths: readonly string[]): Set<string> {
  const components = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (const part of parts) components.add(part);
    const name = parts[parts.length - 1]!;
    const dot = name.lastIndexOf('.');
    if (dot > 0) components.add(name.slice(0, dot));
  }
  return components;
}

/** aider's identifier mentions kept to the words that mean something here: identifiers of the tags, and path components. */
export function mentionedIdentifiers(text: string, vocabulary: Vocabulary): string[] {
  const components = pathComponents(vocabulary.paths);
  return [...new Set(wordsOf(text))].filter((word) => vocabulary.identifiers.has(word) || components.has(word)).sort();
}

/** aider's get_file_mentions: whitespace-separated words, sentence punctuation and quotes stripped. */
function textTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const raw of text.split(/\s+/)) {
    const token = raw
      .replace(/[,.!;:?]+$/, '')
      .replace(/^["'`*_]+|["'`*_]+$/g, '')
      .replaceAll('\\', '/');
    if (token !== '') tokens.add(token);
  }
  return tokens;
}

/**
 * The files the text names, as aider finds them (a whole path; a basename holding `.`, `_` or
 * `-` that one file has; a word of 5 characters or more equal to a file's stem, any case), and
 * by path suffix: a word with a `/` that ends with a file's path (a stack frame's absolute path)
 * or with which a file's path ends.
 */
export function mentionedFiles(text: string, vocabulary: Vocabulary): string[] {
  const tokens = textTokens(text);
  const words = new Set(wordsOf(text).map((word) => word.toLowerCase()));
  const byBasename = new Map<string, string[]>();
  const found = new Set<string>();
  for (const path of vocabulary.paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (/[._-]/.test(name)) byBasename.set(name, [...(byBasename.get(name) ?? []), path]);
    const dot = name.lastIndexOf('.');
    const stem = (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
    if (stem.length >= 5 && words.has(stem)) found.add(path);
    if (tokens.has(path)) found.add(path);
  }
  for (const [name, paths] of byBasename) if (paths.length === 1 && tokens.has(name)) found.add(paths[0]!);
  for (const token of tokens) {
    if (!token.includes('/')) continue;
    const bare = token.replace(/^\.\//, '');
    for (const path of vocabulary.paths) if (bare.endsWith(`/${path}`) || path.endsWith(`/${bare}`)) found.add(path);
  }
  return [...found].sort();
}
