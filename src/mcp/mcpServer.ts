import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RepomapError, UsageError } from '../errors.js';
import type { IndexOptions } from '../options/libraryOptions.js';
import { type CountTokens, loadCl100k } from '../pack/tokenCount.js';
import { packageVersion } from '../packageFiles.js';
import type { RefreshPolicy } from '../serve/refreshPolicies.js';
import { RootSession } from '../serve/rootSession.js';
import { ServedRoots } from './servedRoots.js';
import type { ToolContext } from './toolKit.js';
import { DEFAULT_MAP_TOKENS } from './tools/repoMapTool.js';
import { TOOLS } from './tools.js';

/** `repomap mcp`: the tools over stdio, one session per root, each root opened and indexed after `initialize` is answered. */

export interface McpServeOptions extends Omit<IndexOptions, 'root'> {
  /** Real paths of the roots, each once. */
  roots: readonly string[];
  refresh: RefreshPolicy;
  answerWaitMs: number;
  debounceMs: number;
}

const INSTRUCTIONS = [
  'repomap serves a ranked, token-budgeted map of each repository root and navigation over its index (definitions, references, imports), read from a tag store kept up to date with the files.',
  'Start a task with repo_map (pass the task text as query and the files being edited as chat_files), then use symbol_at, find_symbol, file_deps, file_refs and outline to go deeper.',
  'Every answer names the store generation it was read at and how many changes on disk are not yet indexed; lists come a page at a time (pass nextCursor to read on).',
].join(' ');

/** Serves until the client closes stdin (or the process is told to stop); resolves then, with every store closed. */
export async function serveMcp(options: McpServeOptions): Promise<void> {
  if (options.roots.length > 1 && options.cacheDir !== undefined) throw new UsageError('--cache-dir names one store: give it with a single --root');
  const server = new McpServer({ name: 'repomap', version: packageVersion() }, { instructions: INSTRUCTIONS });
  // Opened after the transport answers: a store's first check, and the first index, never hold up initialize.
  let opened: Promise<RootSession[]> | null = null;
  const openRoots = () =>
    (opened ??= Promise.all(options.roots.map((root) => RootSession.open(root, { ...options, root, warmMap: { maxTokens: DEFAULT_MAP_TOKENS } }))));
  let tokenizer: Promise<CountTokens> | null = null;
  const context = async (): Promise<ToolContext> => ({ roots: new ServedRoots(await openRoots()), countTokens: () => (tokenizer ??= loadCl100k()) });

  for (const [name, row] of Object.entries(TOOLS)) {
    server.registerTool(
      name,
      {
        title: row.title,
        description: row.description,
        inputSchema: row.input,
        outputSchema: row.output,
        annotations: { title: row.title, readOnlyHint: row.readOnly, idempotentHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        try {
          const answer = await row.run(args as never, await context());
          return { content: [{ type: 'text' as const, text: answer.text }], structuredContent: answer.structured };
        } catch (error) {
          return { content: [{ type: 'text' as const, text: errorSentence(error) }], isError: true };
        }
      },
    );
  }

  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(new StdioServerTransport());
  // Set once connected: connecting installs the protocol's own hook, which calls this one.
  server.server.onclose = stop;
  void openRoots().catch(() => {});
  await stopped;
  await server.close().catch(() => {});
  const sessions = await openRoots().catch(() => []);
  await Promise.all(sessions.map((session) => session.close().catch(() => {})));
}

/** One sentence: ours as they are, anything else named unexpected (a bug), never a stack. */
function errorSentence(error: unknown): string {
  if (error instanceof RepomapError) return error.message;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}
