import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliStdout, type McpAnswer, type McpServer, startServer } from './mcpClient.js';
import { seededRandom } from './seededRandom.js';
import { type Tag, treeTags } from './treeArguments.js';

/**
 * A scripted agent session against `repomap mcp`: `node dist/bench/mcpSession.js [--calls N]
 * [--refresh auto|always] [--seed S] ROOT`. On a copy of ROOT, N calls of every tool with edits
 * between them (files edited, added, renamed, removed); each answer is checked against the CLI
 * run on the same tree at that moment, with a store of its own. Under `auto` each edit is waited
 * for until the server's generation moves (the watcher fired and the refresh ran); under
 * `always` the next call must see it at once. Prints the mismatches, the calls per tool and the
 * server's memory; exits 1 on any mismatch or error.
 */

export interface SessionReport {
  calls: number;
  edits: number;
  byTool: Record<string, number>;
  mismatches: string[];
  rssMb: number[];
  peakMb: number;
}

const EXTENSIONS: Record<string, { define: (name: string) => string; comment: string }> = {
  '.py': { define: (name) => `\n\ndef ${name}(value):\n    return value\n`, comment: '# edited' },
  '.js': { define: (name) => `\nfunction ${name}(value) {\n  return value;\n}\n`, comment: '// edited' },
  '.ts': { define: (name) => `\nexport function ${name}(value: number): number {\n  return value;\n}\n`, comment: '// edited' },
  '.go': { define: (name) => `\nfunc ${name}(value int) int {\n\treturn value\n}\n`, comment: '// edited' },
  '.rs': { define: (name) => `\npub fn ${name}(value: u32) -> u32 {\n    value\n}\n`, comment: '// edited' },
  '.java': { define: () => '', comment: '// edited' },
};

export async function runSession(source: string, options: { calls: number; refresh: 'auto' | 'always'; seed: number }): Promise<SessionReport> {
  const work = mkdtempSync(join(tmpdir(), 'repomap-mcp-session-'));
  const root = join(work, basename(source));
  cpSync(source, root, { recursive: true, filter: (path) => basename(path) !== '.repomap' });
  const cliStore = join(work, 'cli-store');
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const tags = treeTags(root);
  const editable = [...new Set(tags.filter((tag) => EXTENSIONS[extname(tag.rel_fname)]?.define('x')).map((tag) => tag.rel_fname))];
  const defs = tags.filter((tag) => tag.kind === 'def');
  const refs = tags.filter((tag) => tag.kind === 'ref' && tag.line >= 1);
  const added: { path: string; name: string }[] = [];
  const report: SessionReport = { calls: 0, edits: 0, byTool: {}, mismatches: [], rssMb: [], peakMb: 0 };
  const server = await startServer(['--root', root, '--refresh', options.refresh]);
  const cli = (...args: string[]) => cliStdout([...args, '--root', root, '--cache-dir', cliStore]);
  try {
    let generation = (await server.call('index_status')).data.roots[0].generation as number;
    generation = await settled(server, generation, options.refresh, true);
    for (let call = 0; call < options.calls; call++) {
      if (call > 0 && random() < 0.25) {
        const what = edit(root, editable, added, random, pick, call);
        report.edits++;
        generation = await settled(server, generation, options.refresh, false, what);
      }
      const live = (tag: Tag) => existsSync(join(root, tag.rel_fname));
      const [name, args, expected] = request(random, pick, defs.filter(live), refs.filter(live), added, cli);
      const answer = await server.call(name, args);
      report.calls++;
      report.byTool[name] = (report.byTool[name] ?? 0) + 1;
      const problem = answer.isError ? `error: ${answer.text}` : expected(answer);
      if (problem) report.mismatches.push(`call ${call} ${name} ${JSON.stringify(args)}: ${problem}`);
      if (call % 100 === 99) report.rssMb.push(Math.round(server.memory().rssMb));
    }
    report.peakMb = Math.round(server.memory().peakMb);
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  return report;
}

/** Under `auto`, waits until the generation moves past `from` (the watcher fired and the refresh ran), at most 20 s; the generation then. */
async function settled(server: McpServer, from: number, refresh: 'auto' | 'always', first: boolean, what = 'the first index'): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const root = (await server.call('index_status')).data.roots[0];
    const moved = first ? root.refreshedAt !== null : root.generation > from;
    if (refresh === 'always' || (moved && root.pendingChanges === 0 && root.refreshingSince === null)) return root.generation;
    if (Date.now() > deadline)
      throw new Error(`the server did not take in ${what} within 20 s (generation ${root.generation}, ${root.pendingChanges} pending)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function edit(
  root: string,
  editable: readonly string[],
  added: { path: string; name: string }[],
  random: () => number,
  pick: <T>(items: readonly T[]) => T,
  call: number,
): string {
  const roll = random();
  const unmoved = added.filter((one) => one.path.includes('session_added_'));
  if (roll < 0.4 || (roll < 0.85 && unmoved.length === 0 && roll >= 0.7) || (roll >= 0.85 && added.length === 0)) {
    const path = pick(editable);
    appendFileSync(join(root, path), `\n${EXTENSIONS[extname(path)]!.comment} ${call}\n`);
    return `edited ${path}`;
  }
  if (roll < 0.7) {
    const like = pick(editable);
    const extension = extname(like);
    const name = `sessionAdded${call}`;
    const path = join(dirname(like), `session_added_${call}${extension}`);
    const header = extension === '.go' ? `package ${readPackage(root, like)}\n` : '';
    writeFileSync(join(root, path), `${header}${EXTENSIONS[extension]!.define(name)}`);
    added.push({ path, name });
    return `added ${path}`;
  }
  if (roll < 0.85) {
    const one = pick(unmoved);
    const moved = one.path.replace('session_added_', 'session_moved_');
    renameSync(join(root, one.path), join(root, moved));
    const from = one.path;
    one.path = moved;
    return `renamed ${from} to ${moved}`;
  }
  const at = Math.floor(random() * added.length);
  rmSync(join(root, added[at]!.path));
  return `removed ${added.splice(at, 1)[0]!.path}`;
}

function readPackage(root: string, goFile: string): string {
  return /^package (\w+)/m.exec(readFileSync(join(root, goFile), 'utf8'))?.[1] ?? 'main';
}

type Expectation = (answer: McpAnswer) => string | null;

/** A call drawn at random, and what its answer must be: what the CLI prints on the same tree. */
function request(
  random: () => number,
  pick: <T>(items: readonly T[]) => T,
  defs: readonly Tag[],
  refs: readonly Tag[],
  added: readonly { path: string; name: string }[],
  cli: (...args: string[]) => string,
): [string, Record<string, unknown>, Expectation] {
  const tool = pick(['repo_map', 'repo_map', 'repo_map', 'find_symbol', 'find_symbol', 'symbol_at', 'file_deps', 'file_refs', 'outline', 'index_status']);
  const body = (answer: McpAnswer) => answer.text.slice(answer.text.indexOf('\n') + 1);
  const same = (want: string) => (answer: McpAnswer) => (body(answer) === want ? null : `differs from the CLI:\n--- mcp\n${body(answer)}\n--- cli\n${want}`);
  /** A page is the CLI's first lines, or an answer of nothing when the CLI found nothing. */
  const prefix = (want: string, empty: (answer: McpAnswer) => boolean) => (answer: McpAnswer) => {
    if (want === '') return empty(answer) ? null : `the CLI found nothing, the server ${body(answer)}`;
    const lines = body(answer)
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('… '));
    const cliLines = want.split('\n');
    return lines.every((line, i) => line === cliLines[i])
      ? null
      : `not the CLI's first lines:\n--- mcp\n${lines.join('\n')}\n--- cli\n${cliLines.slice(0, lines.length).join('\n')}`;
  };
  switch (tool) {
    case 'repo_map': {
      const query = pick([undefined, `fix ${pick(defs).name} when it fails`]);
      const tokens = pick([512, 1024, 2048]);
      return [
        tool,
        { max_tokens: tokens, ...(query ? { query } : {}) },
        same(cli('map', '--max-tokens', String(tokens), ...(query ? ['--query', query] : []))),
      ];
    }
    case 'find_symbol': {
      const name = added.length > 0 && random() < 0.3 ? pick(added).name : pick(defs).name;
      return [tool, { name }, prefix(cli('find', name, '--limit', '10000'), (answer) => answer.data.totals.definitions + answer.data.totals.references === 0)];
    }
    case 'symbol_at': {
      const tag = pick(refs);
      return [
        tool,
        { file: tag.rel_fname, line: tag.line },
        (answer) => {
          const want = cli('at', `${tag.rel_fname}:${tag.line}`, '--max-references', '20');
          return want === ''
            ? answer.data.identifier === null
              ? null
              : `the CLI found no identifier, the server ${answer.data.identifier}`
            : same(want)(answer);
        },
      ];
    }
    case 'file_deps':
    case 'file_refs': {
      const file = pick(defs).rel_fname;
      return [tool, { file }, prefix(cli(tool === 'file_deps' ? 'deps' : 'refs', file), (answer) => answer.data.totals.links === 0)];
    }
    case 'outline': {
      const file = pick(defs).rel_fname;
      const path = pick([file, dirname(file)]);
      return [tool, { path }, same(cli('outline', path, '--max-tokens', '2000'))];
    }
    default:
      return [tool, {}, (answer) => (answer.data.roots[0].lastFailure === null ? null : `a refresh failed: ${answer.data.roots[0].lastFailure}`)];
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { calls: { type: 'string', default: '500' }, refresh: { type: 'string', default: 'auto' }, seed: { type: 'string', default: '1' } },
  });
  if (positionals.length !== 1 || (values.refresh !== 'auto' && values.refresh !== 'always')) {
    process.stderr.write('usage: node dist/bench/mcpSession.js [--calls N] [--refresh auto|always] [--seed S] ROOT\n');
    process.exit(1);
  }
  const started = performance.now();
  const report = await runSession(positionals[0]!, { calls: Number(values.calls), refresh: values.refresh, seed: Number(values.seed) });
  for (const mismatch of report.mismatches) process.stdout.write(`${mismatch.slice(0, 1500)}\n\n`);
  process.stdout.write(
    `${report.calls} calls (${Object.entries(report.byTool)
      .map(([tool, count]) => `${tool} ${count}`)
      .join(
        ', ',
      )}), ${report.edits} edits, ${report.mismatches.length} mismatches; server RSS every 100 calls ${report.rssMb.join(', ')} MB, peak ${report.peakMb} MB; ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  process.exit(report.mismatches.length > 0 ? 1 : 0);
}
