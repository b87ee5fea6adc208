import * as z from 'zod';
import type { CountTokens } from '../pack/tokenCount.js';
import { REFRESH_POLICIES } from '../serve/refreshPolicies.js';
import type { ServedRoots } from './servedRoots.js';

/** What every tool is made of: its schemas, its text for a model, and the one function that answers it. */

/** The longest path a tool takes: Linux's PATH_MAX. */
export const MAX_PATH_LENGTH = 4096;

export interface ToolContext {
  roots: ServedRoots;
  /** cl100k counts, the tokenizer loaded on first use. */
  countTokens(): Promise<CountTokens>;
}

export interface ToolAnswer {
  /** What the model reads. */
  text: string;
  /** The same answer as data, to the tool's output schema. */
  structured: Record<string, unknown>;
}

export interface ToolRow<Input extends z.ZodRawShape, Output extends z.ZodRawShape> {
  title: string;
  /** For a model: what the tool is for, and when to prefer it. */
  description: string;
  input: Input;
  output: Output;
  /** Whether the call changes nothing a client sees (the index it may bring up to date is the server's cache). */
  readOnly: boolean;
  run(args: z.infer<z.ZodObject<Input>>, context: ToolContext): Promise<ToolAnswer>;
}

/** Typed here, stored loosely in the registry: a row's run takes its own input's values. */
export function toolRow<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(row: ToolRow<Input, Output>): ToolRow<Input, Output> {
  return row;
}

export const ROOT_INPUT = z
  .string()
  .min(1)
  .max(MAX_PATH_LENGTH)
  .optional()
  .describe('Which root to read, when the server serves several: its path, or its folder name');

export const INDEX_STATE = z
  .object({
    root: z.string(),
    generation: z.number().int().describe('The store generation the answer was read at'),
    refreshedAt: z.string().nullable().describe('When the index was last brought up to date'),
    pendingChanges: z.number().int().nullable().describe('Changes seen on disk and not yet indexed (null: the root is not watched)'),
    refresh: z.enum(REFRESH_POLICIES),
  })
  .describe('Where the answer came from');

export const OMITTED = z
  .object({ count: z.number().int().nullable().describe('null: not counted'), reason: z.string() })
  .nullable()
  .describe('What the answer left out and why (null: nothing)');

export const CURSOR_INPUT = z.string().max(4096).optional().describe('The nextCursor of the previous page, to read on');
export const NEXT_CURSOR = z.string().nullable().describe('Pass as cursor for the next page; null on the last page');

export const ANSWER_TOKENS_INPUT = (defaultTokens: number, most: number) =>
  z.number().int().min(1).max(most).optional().describe(`The answer's token budget (default ${defaultTokens})`);

/** A state line a model reads first: the root, the generation, what is pending. */
export function stateLine(state: z.infer<typeof INDEX_STATE>): string {
  const pending = state.pendingChanges ? `; ${state.pendingChanges} change${state.pendingChanges === 1 ? '' : 's'} on disk not yet indexed` : '';
  return `[${state.root} · generation ${state.generation}${pending}]`;
}
