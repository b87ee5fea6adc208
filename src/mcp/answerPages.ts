import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';

/**
 * Answers kept small and honest: a list is cut to a page that fits the call's token budget, and
 * the rest is reached with a cursor, which holds the store generation it was made at, so a page
 * is never read from a different index than the one before it.
 */

/** A tool's answer within its budget by default: well under the 10,000 tokens from which clients warn. */
export const DEFAULT_ANSWER_TOKENS = 2000;
export const MAX_ANSWER_TOKENS = 20_000;

export interface Page<T> {
  items: T[];
  /** The lines the items were written as, in order. */
  lines: string[];
  /** The offset of the next page, or null when this one ends the list. */
  next: number | null;
  tokens: number;
}

/**
 * The items from `offset` whose lines fit `budget` tokens together (always at least one, so a
 * page moves on); `linesOf` writes an item's lines, `count` counts a line with its newline.
 */
export function pageWithin<T>(items: readonly T[], offset: number, budget: number, linesOf: (item: T) => string[], count: (text: string) => number): Page<T> {
  const page: Page<T> = { items: [], lines: [], next: null, tokens: 0 };
  for (let at = offset; at < items.length; at++) {
    const lines = linesOf(items[at]!);
    const tokens = lines.reduce((sum, line) => sum + count(`${line}\n`), 0);
    if (page.items.length > 0 && page.tokens + tokens > budget) {
      page.next = at;
      break;
    }
    page.items.push(items[at]!);
    page.lines.push(...lines);
    page.tokens += tokens;
  }
  return page;
}

/** The cursor of the page at `offset` of the answer to `request` (its arguments but the cursor) at `generation`. */
export function cursorOf(tool: string, request: unknown, generation: number, offset: number): string {
  return Buffer.from(JSON.stringify([tool, requestKey(request), generation, offset])).toString('base64url');
}

/** The offset a cursor points at, checked against the request and the generation it must belong to; 0 without a cursor. */
export function offsetOf(cursor: string | undefined, tool: string, request: unknown, generation: number): number {
  if (cursor === undefined) return 0;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    fields = null;
  }
  if (!Array.isArray(fields) || fields.length !== 4 || fields[0] !== tool || !Number.isSafeInteger(fields[3]) || fields[3] < 0) {
    throw new UsageError(`cursor is not one ${tool} gave: call it again without a cursor`);
  }
  if (fields[1] !== requestKey(request)) throw new UsageError(`cursor belongs to another ${tool} request: pass the same arguments as the call that gave it`);
  if (fields[2] !== generation) {
    throw new UsageError(`the index changed since this cursor was given (generation ${fields[2]}, now ${generation}): call ${tool} again without a cursor`);
  }
  return fields[3] as number;
}

function requestKey(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url').slice(0, 16);
}
