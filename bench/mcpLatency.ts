import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { type McpServer, startServer } from './mcpClient.js';
import { median } from './measure.js';
import { seededRandom } from './seededRandom.js';
import { treeTags } from './treeArguments.js';

/**
 * `repomap mcp`'s latency and memory, with the client in this process: `node
 * dist/bench/mcpLatency.js [--calls N] [--edits N] ROOT...`. On a copy of each root (its store
 * cold): initialize, the first index, then medians of N calls each: `repo_map` at 1024 tokens
 * asked again (served from the map kept for the generation) and ranked anew (a new budget each
 * call), `find_symbol` and `symbol_at` on names and positions drawn from the tree; then one-file
 * edits (a comment appended): the time until an answer carries the edit (the watcher, the
 * refresh), and the next `repo_map` ranked anew; the server's RSS after the first index, after the
 * calls and after the edits, and its peak.
 */

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { calls: { type: 'string', default: '30' }, edits: { type: 'string', default: '100' } },
});
if (positionals.length === 0) {
  process.stderr.write('usage: node dist/bench/mcpLatency.js [--calls N] [--edits N] ROOT...\n');
  process.exit(1);
}
const calls = Number(values.calls);
const edits = Number(values.edits);
const COMMENT: Record<string, string> = { '.py': '#', '.rs': '//', '.go': '//', '.java': '//', '.js': '//', '.ts': '//', '.tsx': '//', '.jsx': '//' };

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));

for (const source of positionals) {
  const work = mkdtempSync(join(tmpdir(), 'repomap-mcp-latency-'));
  const root = join(work, basename(source));
  cpSync(source, root, { recursive: true, filter: (path) => basename(path) !== '.repomap' });
  const tags = treeTags(root);
  const defs = tags.filter((tag) => tag.kind === 'def');
  const refs = tags.filter((tag) => tag.kind === 'ref' && tag.line >= 1);
  const editable = [...new Set(tags.map((tag) => tag.rel_fname))].filter((path) => COMMENT[extname(path)]);
  const random = seededRandom(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const server = await startServer(['--root', root]);
  try {
    const started = performance.now();
    let status = await ready(server, -1);
    const coldMs = performance.now() - started;
    const rssIndexed = server.memory().rssMb;
    const sample = async (make: (i: number) => [string, Record<string, unknown>]) => {
      const times: number[] = [];
      for (let i = 0; i < calls; i++) {
        const [name, args] = make(i);
        const answer = await server.call(name, args);
        if (answer.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${answer.text}`);
        times.push(answer.ms);
      }
      return median(times);
    };
    await server.call('repo_map', { max_tokens: 1024 });
    const mapKept = await sample(() => ['repo_map', { max_tokens: 1024 }]);
    const mapRanked = await sample((i) => ['repo_map', { max_tokens: 1024 - 1 - i }]);
    const mapTask = await sample(() => ['repo_map', { max_tokens: 1024, query: `${pick(defs).name} fails when ${pick(defs).name} is empty` }]);
    const find = await sample(() => ['find_symbol', { name: pick(defs).name }]);
    const at = await sample(() => {
      const tag = pick(refs);
      return ['symbol_at', { file: tag.rel_fname, line: tag.line }];
    });
    const rssWarm = server.memory().rssMb;

    const untilFresh: number[] = [];
    const mapAfter: number[] = [];
    const rssAlong: number[] = [];
    for (let edit = 0; edit < edits; edit++) {
      if (edit % Math.max(1, Math.floor(edits / 5)) === 0) rssAlong.push(Math.round(server.memory().rssMb));
      const path = pick(editable);
      const written = performance.now();
      appendFileSync(join(root, path), `\n${COMMENT[extname(path)]} edit ${edit}\n`);
      status = await ready(server, status.generation);
      untilFresh.push(performance.now() - written);
      const answer = await server.call('repo_map', { max_tokens: 1024 - (edit % 7) });
      if (answer.data.index.generation !== status.generation) throw new Error('a map after an edit read another generation');
      mapAfter.push(answer.ms);
    }
    const memory = server.memory();
    process.stdout.write(
      [
        `${basename(source)}: ${status.files} files; initialize ${fmt(server.connectMs)} ms (process start included), first index ${fmt(coldMs)} ms`,
        `  repo_map 1024: asked again ${fmt(mapKept)} ms, ranked anew ${fmt(mapRanked)} ms, with a task ${fmt(mapTask)} ms; find_symbol ${fmt(find)} ms; symbol_at ${fmt(at)} ms (medians of ${calls})`,
        `  after a one-file edit (${edits}): an answer carries it ${fmt(median(untilFresh))} ms after the write; the next repo_map ranked anew ${fmt(median(mapAfter))} ms (${(median(mapAfter) / mapRanked).toFixed(2)}× ranked anew, ${(median(mapAfter) / mapKept).toFixed(2)}× asked again)`,
        `  RSS: indexed ${rssIndexed.toFixed(0)} MB, after the calls ${rssWarm.toFixed(0)} MB, along the edits ${rssAlong.join(', ')} MB, after them ${memory.rssMb.toFixed(0)} MB; peak ${memory.peakMb.toFixed(0)} MB`,
        '',
      ].join('\n'),
    );
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Polls index_status until the generation moves past `from` with nothing pending or running (at most 120 s); the root's status then. */
async function ready(server: McpServer, from: number): Promise<{ generation: number; files: number }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const root = (await server.call('index_status')).data.roots[0];
    if (root.refreshedAt !== null && root.generation > from && root.pendingChanges === 0 && root.refreshingSince === null) return root;
    if (Date.now() > deadline) throw new Error('the server did not settle within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
