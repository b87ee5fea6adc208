import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The bench's MCP client: `repomap mcp` started as the built binary, spoken to through the SDK's client, as an agent would. */

export const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));

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

export interface Tag {
  rel_fname: string;
  line: number;
  name: string;
  kind: 'def' | 'ref';
}

/** The tree's tags, from `repomap tags` in a store of their own (removed after). */
export function tagsOf(root: string): Tag[] {
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-mcp-tags-'));
  try {
    const run = spawnSync(process.execPath, [CLI, 'tags', root, '--cache-dir', cacheDir], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (run.status !== 0) throw new Error(`repomap tags ${root} failed: ${run.stderr}`);
    return run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Tag);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** A CLI run's stdout (exit 0 or 2), for comparing an answer with what the CLI says on the same tree. */
export function cliStdout(args: readonly string[]): string {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0 && run.status !== 2) throw new Error(`repomap ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
