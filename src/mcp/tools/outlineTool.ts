import * as z from 'zod';
import { outline } from '../../navigate/outline.js';
import { OUTLINE_DETAILS } from '../../options/optionTable.js';
import { INDEX_STATE, MAX_PATH_LENGTH, OMITTED, ROOT_INPUT, stateLine, toolRow } from '../toolKit.js';

const DEFAULT_OUTLINE_TOKENS = 2000;
const MAX_OUTLINE_TOKENS = 20_000;
const MAX_DEPTH = 64;

/** `outline`: a file's or folder's definitions as signatures, within a budget. */
export const outlineTool = toolRow({
  title: 'Outline',
  description: [
    "The tree of files under a folder (or one file) with their definitions as signatures, methods under their classes, each with its line: a file's shape without reading it.",
    'Prefer it to reading a whole file when you need what it defines; detail files lists only the files, full adds the first doc line.',
  ].join(' '),
  input: {
    root: ROOT_INPUT,
    path: z.string().min(1).max(MAX_PATH_LENGTH).optional().describe('A file or folder, relative to the root (or absolute); default the whole root'),
    detail: z.enum(OUTLINE_DETAILS).optional().describe('files, signatures (default) or full'),
    depth: z.number().int().min(0).max(MAX_DEPTH).optional().describe('Folder levels shown below path (0: its own files only); default all'),
    tests: z.boolean().optional().describe('Keep test files (left out unless path is a test file or folder)'),
    max_tokens: z
      .number()
      .int()
      .min(1)
      .max(MAX_OUTLINE_TOKENS)
      .optional()
      .describe(`The answer's token budget (default ${DEFAULT_OUTLINE_TOKENS}), never exceeded`),
  },
  output: {
    index: INDEX_STATE,
    path: z.string(),
    files: z.object({ shown: z.number().int(), total: z.number().int() }),
    definitions: z.object({ shown: z.number().int(), total: z.number().int() }).nullable(),
    tokens: z.number().int().nullable(),
    budget: z.number().int().nullable(),
    omitted: OMITTED,
  },
  readOnly: true,
  async run(args, { roots }) {
    const session = roots.pick(args.root, args.path ? [args.path] : []);
    const budget = args.max_tokens ?? DEFAULT_OUTLINE_TOKENS;
    const { value, state } = await session.read(args.path ? [args.path] : [], (view) =>
      outline(view, { path: args.path, detail: args.detail, depth: args.depth, tests: args.tests, maxTokens: budget }),
    );
    const { files, definitions } = value;
    const leftFiles = files.total - files.shown;
    const leftDefinitions = definitions ? definitions.total - definitions.shown : 0;
    const omitted =
      leftFiles + leftDefinitions > 0
        ? {
            count: leftDefinitions > 0 ? leftDefinitions : leftFiles,
            reason: `${leftDefinitions > 0 ? 'definitions' : 'files'} past the ${budget}-token budget: outline a folder or file further down, lower depth, or raise max_tokens`,
          }
        : null;
    return {
      text: `${stateLine(state)}\n${value.text}`,
      structured: { index: state, path: value.path, files, definitions, tokens: value.tokens, budget: value.budget, omitted },
    };
  },
});
