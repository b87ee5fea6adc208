import type { Definition } from '../record/fileRecord.js';

/**
 * The lines of a large JavaScript or TypeScript file that `at` may leave out of its parse: the
 * insides of the classes and the function and method bodies that do not hold the position, found
 * from the record's definitions (their first and last lines) without a parse. Kept lines keep
 * their numbers and text, so every position and every kept node reads as in the whole file; the
 * parse of a 12,000-line file drops from about 60 ms to 1–8. What is read from a cut inside (a
 * class's members, a function's return) is read from the whole file's parse.
 */

/** Files smaller than this are parsed whole: their parse takes a millisecond or two. */
export const PRUNE_FROM_BYTES = 8 * 1024;
const BODIED = new Set(['function', 'method', 'constructor', 'class']);
const [OPEN_PAREN, CLOSE_PAREN, OPEN_BRACE, CLOSE_BRACE] = ['(', ')', '{', '}'].map((char) => char.charCodeAt(0));

/** Per line (0-based), 1 when it is inside a body left out; null when no body can be left out. */
export function prunableLines(lines: readonly string[], definitions: readonly Definition[], keepLine: number): Uint8Array | null {
  const cut = new Uint8Array(lines.length);
  let any = false;
  for (const { kind, line, endLine } of definitions) {
    // A definition inside a body already left out (definitions come in line order) goes with it.
    if (!BODIED.has(kind) || cut[line - 1] === 1 || (line <= keepLine && keepLine <= endLine) || endLine - line < 2) continue;
    const open = bodyOpenLine(lines, line, endLine);
    // The body's closing brace opens its last line: `}`, `})`, `};`.
    if (open === -1 || !/^\s*}/.test(lines[endLine - 1] ?? '')) continue;
    for (let at = open; at < endLine - 1; at++) cut[at] = 1;
    any ||= open < endLine - 1;
  }
  return any ? cut : null;
}

/**
 * The 1-based line that ends the head of a definition spanning `line`..`endLine` with the body's
 * `{`: its parentheses closed and that one brace open, counted from the name's line; -1 when no
 * line in the span reads so (a head with braces in strings, an expression body).
 */
function bodyOpenLine(lines: readonly string[], line: number, endLine: number): number {
  let parens = 0;
  let braces = 0;
  for (let at = line; at < endLine; at++) {
    const text = lines[at - 1] ?? '';
    // By char code: a string iterator makes a string of each character, and a large file has thousands of heads.
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === OPEN_PAREN) parens++;
      else if (code === CLOSE_PAREN) parens--;
      else if (code === OPEN_BRACE) braces++;
      else if (code === CLOSE_BRACE) braces--;
    }
    if (parens === 0 && braces === 1 && /{\s*$/.test(text)) return at;
    if (parens < 0 || braces < 0 || braces > 1) return -1;
  }
  return -1;
}
