import * as z from 'zod';
import { at, MAX_COLUMN, MAX_LINE } from '../../navigate/at.js';
import { atText } from '../../render/navigationText.js';
import { INDEX_STATE, MAX_PATH_LENGTH, OMITTED, ROOT_INPUT, stateLine, toolRow } from '../toolKit.js';

const DEFAULT_REFERENCES = 20;
const MAX_REFERENCES = 500;

/** `symbol_at`: go to definition and hover, for one position. */
export const symbolAtTool = toolRow({
  title: 'Symbol at a position',
  description: [
    "Go to definition for the identifier at FILE:LINE[:COL]: its definitions (with how each was found: the file's scopes, its imports, the enclosing class, a declared type, or a ranking by name),",
    'a hover text (signature and first doc line) and where it is referenced.',
    'Prefer it to find_symbol when you are reading a line and want what one of its names means.',
  ].join(' '),
  input: {
    root: ROOT_INPUT,
    file: z.string().min(1).max(MAX_PATH_LENGTH).describe('The file, relative to the root (or absolute)'),
    line: z.number().int().min(1).max(MAX_LINE).describe('1-based line'),
    column: z.number().int().min(1).max(MAX_COLUMN).optional().describe('1-based column; without it, the first identifier on the line that is tagged'),
    max_references: z.number().int().min(0).max(MAX_REFERENCES).optional().describe(`References listed (default ${DEFAULT_REFERENCES})`),
  },
  output: {
    index: INDEX_STATE,
    path: z.string(),
    line: z.number().int(),
    column: z.number().int(),
    identifier: z.string().nullable(),
    definitions: z.array(
      z.object({
        path: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        kind: z.string(),
        how: z.string(),
        signature: z.string(),
        doc: z.string(),
      }),
    ),
    ambiguous: z.boolean(),
    hover: z.string(),
    references: z.array(z.object({ path: z.string(), line: z.number().int() })),
    referenceFiles: z.number().int(),
    omitted: OMITTED,
  },
  readOnly: true,
  async run(args, { roots }) {
    const session = roots.pick(args.root, [args.file]);
    const maxReferences = args.max_references ?? DEFAULT_REFERENCES;
    const { value, state } = await session.read([args.file], (view) =>
      at(view, [{ path: args.file, line: args.line, column: args.column }], { maxReferences, parsedFiles: session.parsedFiles }),
    );
    const answer = value.positions[0]!;
    const where = `${answer.path}:${answer.line}${args.column ? `:${answer.column}` : ''}`;
    const text = answer.identifier === null ? `no identifier at ${where}\n` : atText(answer);
    const omitted =
      maxReferences > 0 && answer.references.length >= maxReferences
        ? { count: null, reason: `references past the first ${maxReferences}: raise max_references, or page them all with find_symbol (kind ref)` }
        : null;
    return { text: `${stateLine(state)}\n${text}`, structured: { index: state, ...answer, omitted } };
  },
});
