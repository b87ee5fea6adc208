import * as z from 'zod';
import { MAX_QUERY_LENGTH } from '../../options/optionTable.js';
import { MAP_FORMAT_NAMES } from '../../render/formats.js';
import { INDEX_STATE, MAX_PATH_LENGTH, OMITTED, ROOT_INPUT, stateLine, toolRow } from '../toolKit.js';

/** A map's budget by default: twice the CLI's, and well under what clients warn about. */
export const DEFAULT_MAP_TOKENS = 2048;
const MAX_MAP_TOKENS = 20_000;
/** Paths a list argument may hold: a task names a few files, never a tree. */
const MAX_LISTED = 1000;

const paths = (what: string) => z.array(z.string().min(1).max(MAX_PATH_LENGTH)).max(MAX_LISTED).optional().describe(what);

/** `repo_map`: the map, what it shows, and what the budget left out. */
export const repoMapTool = toolRow({
  title: 'Repository map',
  description: [
    'A ranked map of the repository: the files and definitions (as signatures) that matter most for the task, within a token budget.',
    'Call it first on a task: pass the task or issue text as query, the files being edited as chat_files, and any file or identifier the task names.',
    'Prefer it to listing folders or reading files one by one to find where to work; then use symbol_at, find_symbol or outline to go deeper.',
  ].join(' '),
  input: {
    root: ROOT_INPUT,
    query: z.string().max(MAX_QUERY_LENGTH).optional().describe("The task's text (an issue, a request): its words, files and names steer the ranking"),
    chat_files: paths('Files being edited: they steer the ranking and are left out of the map'),
    mentioned_files: paths('Files the task names'),
    mentioned_identifiers: z.array(z.string().min(1).max(MAX_PATH_LENGTH)).max(MAX_LISTED).optional().describe('Identifiers the task names'),
    anchors: z.array(z.string().min(1).max(MAX_PATH_LENGTH)).max(MAX_LISTED).optional().describe('FILE, IDENT or FILE:IDENT always shown, and weighted up'),
    scopes: paths('Folders being worked in (a monorepo): the map shows only them and what they import'),
    max_tokens: z.number().int().min(1).max(MAX_MAP_TOKENS).optional().describe(`The map's token budget, never exceeded (default ${DEFAULT_MAP_TOKENS})`),
    format: z
      .enum(MAP_FORMAT_NAMES as [string, ...string[]])
      .optional()
      .describe('text (default), compact, xml or markdown'),
    tests: z.enum(['demote', 'exclude', 'include']).optional().describe('Test files: ranked lower (default), left out, or ranked as any file'),
  },
  output: {
    index: INDEX_STATE,
    tokens: z.number().int(),
    budget: z.number().int(),
    files: z.object({ shown: z.number().int(), total: z.number().int() }),
    shown: z
      .array(z.object({ path: z.string(), shownAs: z.enum(['lines', 'path']), definitions: z.array(z.string()) }))
      .describe('The files the map shows, in ranked order, with the names of the definitions shown'),
    omitted: OMITTED,
  },
  readOnly: true,
  async run(args, { roots }) {
    const absolute = [...(args.chat_files ?? []), ...(args.mentioned_files ?? []), ...(args.scopes ?? [])];
    const session = roots.pick(args.root, absolute);
    const { value: map, state } = await session.map({
      query: args.query,
      chatFiles: args.chat_files,
      mentionedFiles: args.mentioned_files,
      mentionedIdents: args.mentioned_identifiers,
      anchors: args.anchors,
      scopes: args.scopes,
      maxTokens: args.max_tokens ?? DEFAULT_MAP_TOKENS,
      format: args.format as (typeof MAP_FORMAT_NAMES)[number] | undefined,
      tests: args.tests,
    });
    const { files, tokens, budget } = map.report;
    const left = files - map.shown.length;
    const omitted =
      left > 0
        ? { count: left, reason: `files ranked below the map's ${budget}-token budget: raise max_tokens, or narrow with query, scopes or chat_files` }
        : null;
    return {
      text: `${stateLine(state)}\n${map.text}`,
      structured: {
        index: state,
        tokens,
        budget,
        files: { shown: map.shown.length, total: files },
        shown: map.shown.map((file) => ({ path: file.path, shownAs: file.shownAs, definitions: file.definitions.map((definition) => definition.name) })),
        omitted,
      },
    };
  },
});
