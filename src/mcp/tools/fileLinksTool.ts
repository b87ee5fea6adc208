import * as z from 'zod';
import { type DepLink, type DepsDirection, fileDeps, type NameLink } from '../../navigate/deps.js';
import { linkLine, NAME_LINKS_HEADING, nameLinkLine } from '../../render/navigationText.js';
import { cursorOf, DEFAULT_ANSWER_TOKENS, MAX_ANSWER_TOKENS, offsetOf, pageWithin } from '../answerPages.js';
import {
  ANSWER_TOKENS_INPUT,
  CURSOR_INPUT,
  INDEX_STATE,
  MAX_PATH_LENGTH,
  NEXT_CURSOR,
  OMITTED,
  ROOT_INPUT,
  stateLine,
  type ToolRow,
  toolRow,
} from '../toolKit.js';

/** Import steps followed at most: real import chains are far shorter. */
const MAX_DEPTH = 16;

const LINK = z.object({
  path: z.string(),
  depth: z.number().int(),
  via: z.array(z.string()),
  imports: z.array(z.object({ line: z.number().int(), module: z.string() })),
  names: z.array(z.string()),
});
const NAME_LINK = z.object({ path: z.string(), names: z.array(z.string()) });

const INPUT = {
  root: ROOT_INPUT,
  file: z.string().min(1).max(MAX_PATH_LENGTH).describe('The file, relative to the root (or absolute)'),
  depth: z.number().int().min(1).max(MAX_DEPTH).optional().describe('Import steps to follow (default 1: direct links only)'),
  name_links: z.boolean().optional().describe('Also list files linked only by names (one references what the other defines, no import)'),
  max_tokens: ANSWER_TOKENS_INPUT(DEFAULT_ANSWER_TOKENS, MAX_ANSWER_TOKENS),
  cursor: CURSOR_INPUT,
};

const OUTPUT = {
  index: INDEX_STATE,
  file: z.string(),
  depth: z.number().int(),
  totals: z.object({ links: z.number().int(), nameLinks: z.number().int() }),
  links: z.array(LINK),
  nameLinks: z.array(NAME_LINK),
  nextCursor: NEXT_CURSOR,
  omitted: OMITTED,
};

type Item = { link: DepLink } | { nameLink: NameLink };

/** `file_deps` and `file_refs`: one file's import links, one way or the other, a page at a time. */
function fileLinksTool(tool: 'file_deps' | 'file_refs', direction: DepsDirection, title: string, description: string): ToolRow<typeof INPUT, typeof OUTPUT> {
  return toolRow({
    title,
    description,
    input: INPUT,
    output: OUTPUT,
    readOnly: true,
    async run(args, { roots, countTokens }) {
      const session = roots.pick(args.root, [args.file]);
      const count = await countTokens();
      const { cursor, ...request } = args;
      const budget = args.max_tokens ?? DEFAULT_ANSWER_TOKENS;
      const { value, state } = await session.read([args.file], async (view, _, generation) => {
        const offset = offsetOf(cursor, tool, request, generation);
        const result = await fileDeps(view, { file: args.file, direction, depth: args.depth, nameLinks: args.name_links });
        const items: Item[] = [...result.links.map((link) => ({ link })), ...result.nameLinks.map((nameLink) => ({ nameLink }))];
        const firstNameLink = result.links.length;
        const linesOf = (item: Item) =>
          'link' in item ? [linkLine(result, item.link)] : [...(item === items[firstNameLink] ? [NAME_LINKS_HEADING] : []), nameLinkLine(item.nameLink)];
        const page = pageWithin(items, offset, budget, linesOf, count);
        // A page starting among the name links names them under their heading too.
        if (offset > firstNameLink && page.items.length > 0) page.lines.unshift(NAME_LINKS_HEADING);
        const nextCursor = page.next === null ? null : cursorOf(tool, request, generation, page.next);
        return { result, page, nextCursor, rest: items.length - offset - page.items.length };
      });
      const { result, page, nextCursor, rest } = value;
      const omitted = rest > 0 ? { count: rest, reason: `over the answer's ${budget}-token budget: pass nextCursor to read on` } : null;
      const lines = [stateLine(state)];
      if (result.links.length + result.nameLinks.length === 0) {
        lines.push(direction === 'imports' ? `${result.file} imports no file of the repository` : `no file of the repository imports ${result.file}`);
      }
      lines.push(...page.lines);
      if (omitted) lines.push(`… ${omitted.count} more (${omitted.reason})`);
      return {
        text: `${lines.join('\n')}\n`,
        structured: {
          index: state,
          file: result.file,
          depth: result.depth,
          totals: { links: result.links.length, nameLinks: result.nameLinks.length },
          links: page.items.flatMap((item) => ('link' in item ? [item.link] : [])),
          nameLinks: page.items.flatMap((item) => ('nameLink' in item ? [item.nameLink] : [])),
          nextCursor,
          omitted,
        },
      };
    },
  });
}

export const fileDepsTool = fileLinksTool(
  'file_deps',
  'imports',
  "A file's dependencies",
  [
    'The repository files a file imports (imports resolved to files, through re-exports), each with the importing line, the module as written and the names that cross the link.',
    'Use depth for the transitive closure. Prefer it to reading the import block and guessing paths.',
  ].join(' '),
);

export const fileRefsTool = fileLinksTool(
  'file_refs',
  'importers',
  "A file's importers",
  [
    'The repository files that import a file, each with its importing line, the module as written and the names it takes: who is affected by a change to the file.',
    'Use depth for importers of importers; name_links adds files that use its names without an import.',
  ].join(' '),
);
