import * as z from 'zod';
import { type FindHit, findName } from '../../navigate/find.js';
import { findHitsText } from '../../render/navigationText.js';
import { cursorOf, DEFAULT_ANSWER_TOKENS, MAX_ANSWER_TOKENS, offsetOf, pageWithin } from '../answerPages.js';
import { ANSWER_TOKENS_INPUT, CURSOR_INPUT, INDEX_STATE, MAX_PATH_LENGTH, NEXT_CURSOR, OMITTED, ROOT_INPUT, stateLine, toolRow } from '../toolKit.js';

/** Hits one call ranks: a page is cut from them by the budget, and a cursor past them says the rest is left out. */
const MOST_HITS = 10_000;
/** The fewest tokens a hit's line takes (`a:1: ref call: x`), and what one usually takes (a path, a kind, a line of code). */
const MIN_HIT_TOKENS = 6;
const TYPICAL_HIT_TOKENS = 20;
const MAX_CONTEXT = 10;

const HIT = z.object({
  path: z.string(),
  line: z.number().int(),
  role: z.enum(['def', 'ref']),
  kind: z.string(),
  scope: z.array(z.string()),
  text: z.string(),
  context: z.array(z.object({ line: z.number().int(), text: z.string() })),
});

/** `find_symbol`: definitions then references of a name, a page at a time. */
export const findSymbolTool = toolRow({
  title: 'Find a symbol',
  description: [
    'Where a name is defined and where it is referenced across the repository, definitions first, best-ranked files first; one line per hit with the source line.',
    'Accepts a plain name or a qualified one (Class.method, pkg.Func, mod::Type). Prefer it to grep for code names: it knows definitions from uses and skips comments and strings.',
    'When nothing matches, it names the closest defined names.',
  ].join(' '),
  input: {
    root: ROOT_INPUT,
    name: z.string().min(1).max(1000).describe('A name, or a qualified one: Class.method, pkg.Func, mod::Type'),
    kind: z.enum(['def', 'ref', 'all']).optional().describe('Definitions, references or both (default)'),
    in: z.array(z.string().min(1).max(MAX_PATH_LENGTH)).max(100).optional().describe('Only hits in these files or folders'),
    context: z.number().int().min(0).max(MAX_CONTEXT).optional().describe('Lines of source around each hit (default 0)'),
    max_tokens: ANSWER_TOKENS_INPUT(DEFAULT_ANSWER_TOKENS, MAX_ANSWER_TOKENS),
    cursor: CURSOR_INPUT,
  },
  output: {
    index: INDEX_STATE,
    query: z.string(),
    totals: z.object({ definitions: z.number().int(), references: z.number().int() }),
    hits: z.array(HIT),
    closest: z.array(z.string()).describe('With no hit: the defined names closest to the query'),
    nextCursor: NEXT_CURSOR,
    omitted: OMITTED,
  },
  readOnly: true,
  async run(args, { roots, countTokens }) {
    const session = roots.pick(args.root, args.in ?? []);
    const count = await countTokens();
    const { cursor, ...request } = args;
    const budget = args.max_tokens ?? DEFAULT_ANSWER_TOKENS;
    const { value, state } = await session.read([], async (view, _, generation) => {
      const offset = offsetOf(cursor, 'find_symbol', request, generation);
      const find = (most: number) =>
        findName(view, { name: args.name, kind: args.kind, in: args.in, context: args.context, limit: Math.min(MOST_HITS, offset + most) });
      const pageOf = (hits: readonly FindHit[]) => pageWithin(hits, offset, budget, (hit) => findHitsText([hit], (args.context ?? 0) > 0), count);
      // Only the hits a page can hold are read (each takes its line from a record or its file): first as many as
      // typical lines fill, then, when they did not, as many as the shortest could.
      let result = await find(Math.ceil(budget / TYPICAL_HIT_TOKENS) + 1);
      let page = pageOf([...result.definitions, ...result.references]);
      if (page.next === null && result.omitted > 0) {
        result = await find(Math.floor(budget / MIN_HIT_TOKENS) + 1);
        page = pageOf([...result.definitions, ...result.references]);
      }
      const listed = Math.min(result.totals.definitions + result.totals.references, MOST_HITS);
      // The page ends where the budget did, or where the hits read did while more are listed.
      const next = page.next ?? (offset + page.items.length < listed ? offset + page.items.length : null);
      const nextCursor = next === null ? null : cursorOf('find_symbol', request, generation, next);
      return { result, page, nextCursor, rest: listed - offset - page.items.length };
    });
    const { result, page, nextCursor, rest } = value;
    const total = result.totals.definitions + result.totals.references;
    const past = Math.max(0, total - MOST_HITS);
    const omitted =
      rest > 0
        ? { count: rest + past, reason: `over the answer's ${budget}-token budget: pass nextCursor to read on` }
        : past > 0
          ? { count: past, reason: `past the first ${MOST_HITS} hits: narrow with in or kind` }
          : null;
    const lines = [stateLine(state)];
    if (total === 0)
      lines.push(`no definition or reference of '${result.query}'${result.closest.length > 0 ? `; closest defined names: ${result.closest.join(', ')}` : ''}`);
    lines.push(...page.lines);
    if (omitted) lines.push(`… ${omitted.count} more (${omitted.reason})`);
    return {
      text: `${lines.join('\n')}\n`,
      structured: { index: state, query: result.query, totals: result.totals, hits: page.items, closest: result.closest, nextCursor, omitted },
    };
  },
});
