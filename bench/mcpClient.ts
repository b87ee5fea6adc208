import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The bench's MCP client: `repomap mcp` started as the built binary, spoken to through the SDK's client, as an agent would. */

const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));

export interface McpAnswer {
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: checked by the server against each tool's output schema.
  data: any;
  isError: boolean;
  ms: number;
}

export interface McpServer {
  call(name: string, args?: Record<string, unknown>): Promise<McpAnswer>;
  /** The server process's resident memory now and at its peak, in MB (Linux). */
  memory(): { rssMb: number; peakMb: number };
  close(): Promise<void>;
}

export async function startServer(args: readonly string[]): Promise<McpServer & { connectMs: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'inherit' });
  const client = new Client({ name: 'repomap-bench', version: '1' });
  await client.connect(transport);
  const connectMs = performance.now() - started;
  return {
    connectMs,
    async call(name, callArgs = {}) {
      const begun = performance.now();
      const result = await client.callTool({ name, arguments: callArgs }, undefined, { timeout: 600_000 });
      const ms = performance.now() - begun;
      const content = result.content as { text: string }[];
      return { text: content[0]?.text ?? '', data: result.structuredContent, isError: result.isError === true, ms };
    },
    memory() {
      const status = readFileSync(`/proc/${transport.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
      return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
    },
    close: () => client.close(),
  };
}

/** A CLI run's stdout (exit 0 or 2), for comparing an answer with what the CLI says on the same tree. */
export function cliStdout(args: readonly string[]): string {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0 && run.status !== 2) throw new Error(`repomap ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}
