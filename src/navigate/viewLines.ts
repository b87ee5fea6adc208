import type { RepoView } from './repoView.js';

/** What the navigation commands share: path filters, rank order, and lines shown with their context. */

export interface NumberedLine {
  /** 1-based. */
  line: number;
  text: string;
}

/** The longest line text a result carries: a minified file's line is no line to show. */
export const MAX_TEXT = 400;

/** Whether `path` is one of the prefixes (a file's path, or a folder's: '' for the root), or lies under one; any path when none are given. */
export function inPrefixes(path: string, prefixes: readonly string[]): boolean {
  return prefixes.length === 0 || prefixes.some((prefix) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`));
}

/** Higher file rank first, then path, then line. */
export function rankOrder(a: { rank: number; path: string; line: number }, b: { rank: number; path: string; line: number }): number {
  return b.rank - a.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line;
}

/** A line's text as the file has it now, and the `context` lines each side of it. */
export function lineContext(view: RepoView, path: string, line: number, context: number): { text: string; around: NumberedLine[] } {
  const lines = view.sourceLines(path) ?? [];
  const around: NumberedLine[] = [];
  for (let at = Math.max(1, line - context); at <= Math.min(lines.length, line + context); at++) {
    if (at !== line) around.push({ line: at, text: cutText(lines[at - 1]!) });
  }
  return { text: cutText(lines[line - 1] ?? ''), around };
}

/** A line's text as a result carries it: at most MAX_TEXT characters, then `…`. */
export function cutText(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}
