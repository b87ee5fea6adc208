import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI, runCli } from '../support/cli.js';

/** `repomap mcp` started as the built binary and spoken to through the SDK's own client, on copies of the language fixtures. */

const fixture = (leaf: string) => fileURLToPath(new URL(`../../fixtures/languages/${leaf}`, import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'repomap-mcp-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
/** A copy of a fixture to edit, with its store inside it. */
function copyOf(leaf: string): string {
  const root = join(scratch, `${leaf}-${++copies}`);
  cpSync(fixture(leaf), root, { recursive: true });
  return root;
}

interface Answer {
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: structured content is checked by the server against each tool's schema; tests read fields.
  data: any;
  isError: boolean;
}

interface Served {
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  client: Client;
  close(): Promise<void>;
}

const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function serve(...args: string[]): Promise<Served> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'pipe' });
  const client = new Client({ name: 'repomap-test', version: '1' });
  await client.connect(transport);
  const served: Served = {
    client,
    async call(name, callArgs = {}) {
      const result = await client.callTool({ name, arguments: callArgs });
      const content = result.content as { type: string; text: string }[];
      return { text: content[0]!.text, data: result.structuredContent, isError: result.isError === true };
    },
    close: () => client.close(),
  };
  servers.push(served);
  return served;
}

/** The answer's text without its first line, which names the root and the generation. */
const body = (answer: Answer) => answer.text.slice(answer.text.indexOf('\n') + 1);

async function cliOut(args: string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe('');
  return result.stdout;
}

/** Calls until `done` holds of the answer (the watcher's refresh is asynchronous), for at most 10 s. */
async function until(server: Served, name: string, args: Record<string, unknown>, done: (answer: Answer) => boolean): Promise<Answer> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await server.call(name, args);
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.concurrent('repomap mcp', () => {
  test('lists its tools, each with a description, an output schema and its hints', async () => {
    const server = await serve('--root', copyOf('python'));
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['repo_map', 'find_symbol', 'symbol_at', 'file_deps', 'file_refs', 'outline', 'index_status', 'refresh']);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'refresh');
    }
    const help = await runCli(['mcp', '--help']);
    for (const tool of tools) expect(help.stdout).toContain(`  ${tool.name} `);
  });

  test('each tool answers as the CLI does on the same tree', async () => {
    const root = copyOf('python');
    const server = await serve('--root', root);
    const cli = (...args: string[]) => cliOut([...args, '--root', root, '--cache-dir', join(scratch, `cli-store-${copies}`)]);

    const map = await server.call('repo_map', { max_tokens: 512 });
    expect(map.isError).toBe(false);
    expect(body(map)).toBe(await cli('map', '--max-tokens', '512'));
    expect(map.data.files).toEqual({ shown: map.data.shown.length, total: 5 });
    expect(map.data.tokens).toBeLessThanOrEqual(512);
    expect(map.text.split('\n')[0]).toBe(`[${root} · generation ${map.data.index.generation}]`);

    const task = await server.call('repo_map', { query: 'lend a book to a member', chat_files: ['bookshelf/lending.py'], max_tokens: 300 });
    expect(body(task)).toBe(await cli('map', '--query', 'lend a book to a member', '--chat-file', 'bookshelf/lending.py', '--max-tokens', '300'));

    const find = await server.call('find_symbol', { name: 'Catalog' });
    expect(body(find)).toBe(
      [
        'bookshelf/catalog.py:41: def class: class Catalog(Repository[Book]):',
        'bookshelf/lending.py:12: ref type:     def __init__(self, books: catalog.Catalog):',
        'bookshelf/__init__.py:2: ref import: from .catalog import Catalog',
        '',
      ].join('\n'),
    );
    expect(find.data.totals).toEqual({ definitions: 1, references: 2 });
    expect(find.data.hits[0]).toEqual({
      path: 'bookshelf/catalog.py',
      line: 41,
      role: 'def',
      kind: 'class',
      scope: [],
      text: 'class Catalog(Repository[Book]):',
      context: [],
    });
    expect(find.data.nextCursor).toBe(null);
    expect(find.data.omitted).toBe(null);

    expect(body(await server.call('file_deps', { file: 'bookshelf/catalog.py' }))).toBe(await cli('deps', 'bookshelf/catalog.py'));
    const refs = await server.call('file_refs', { file: 'bookshelf/models.py', depth: 2 });
    expect(body(refs)).toBe(await cli('refs', 'bookshelf/models.py', '--depth', '2'));
    expect(refs.data.links.map((link: { path: string }) => link.path)).toEqual(['bookshelf/lending.py', 'bookshelf/catalog.py', 'bookshelf/__init__.py']);

    const at = await server.call('symbol_at', { file: 'bookshelf/lending.py', line: 12, column: 42 });
    expect(body(at)).toBe(await cli('at', 'bookshelf/lending.py:12:42', '--max-references', '20'));
    expect(at.data.identifier).toBe('Catalog');
    expect(at.data.definitions[0]).toMatchObject({ path: 'bookshelf/catalog.py', line: 41 });
    expect(at.data.omitted).toBe(null);
    const cut = await server.call('symbol_at', { file: 'bookshelf/lending.py', line: 12, column: 42, max_references: 1 });
    expect(body(cut)).toBe(await cli('at', 'bookshelf/lending.py:12:42', '--max-references', '1'));
    expect(cut.data.omitted).toEqual({
      count: null,
      reason: 'references past the first 1: raise max_references, or page them all with find_symbol (kind ref)',
    });

    expect(body(await server.call('outline', { path: 'bookshelf' }))).toBe(await cli('outline', 'bookshelf', '--max-tokens', '2000'));

    const status = await server.call('index_status');
    expect(status.data.roots).toHaveLength(1);
    expect(status.data.roots[0]).toMatchObject({ root, files: 5, languages: { python: 5 }, refreshingSince: null, lastFailure: null });
  });

  test('lists come a page at a time within the budget, and a cursor does not outlive its generation', async () => {
    const root = copyOf('python');
    const server = await serve('--root', root, '--refresh', 'always');
    const whole = await server.call('find_symbol', { name: 'Book' });
    const all = whole.data.hits.length;
    expect(all).toBeGreaterThan(4);
    const pages: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await server.call('find_symbol', { name: 'Book', max_tokens: 40, cursor });
      expect(page.isError).toBe(false);
      expect(page.data.hits.length).toBeGreaterThan(0);
      pages.push(...page.data.hits);
      cursor = page.data.nextCursor ?? undefined;
      if (cursor) expect(page.data.omitted).toEqual({ count: all - pages.length, reason: "over the answer's 40-token budget: pass nextCursor to read on" });
    } while (cursor);
    expect(pages).toEqual(whole.data.hits);

    const first = await server.call('find_symbol', { name: 'Book', max_tokens: 40 });
    const other = await server.call('find_symbol', { name: 'Book', max_tokens: 41, cursor: first.data.nextCursor });
    expect(other).toMatchObject({ isError: true, text: 'cursor belongs to another find_symbol request: pass the same arguments as the call that gave it' });
    writeFileSync(join(root, 'bookshelf/extra.py'), 'from .models import Book\n\nFAVOURITE = Book\n');
    const stale = await server.call('find_symbol', { name: 'Book', max_tokens: 40, cursor: first.data.nextCursor });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^the index changed since this cursor was given \(generation \d+, now \d+\): call find_symbol again without a cursor$/);
  });

  test('refresh always: an edit, an addition, a removal and a rename show in the next call', async () => {
    const root = copyOf('python');
    const server = await serve('--root', root, '--refresh', 'always');
    const defined = async (name: string) => (await server.call('find_symbol', { name, kind: 'def' })).data.hits.map((hit: { path: string }) => hit.path);
    expect(await defined('shelve')).toEqual([]);
    writeFileSync(join(root, 'bookshelf/shelf.py'), 'def shelve(book):\n    return book\n');
    expect(await defined('shelve')).toEqual(['bookshelf/shelf.py']);
    renameSync(join(root, 'bookshelf/shelf.py'), join(root, 'bookshelf/rack.py'));
    expect(await defined('shelve')).toEqual(['bookshelf/rack.py']);
    writeFileSync(join(root, 'bookshelf/rack.py'), 'def unshelve(book):\n    return book\n');
    expect(await defined('shelve')).toEqual([]);
    expect(await defined('unshelve')).toEqual(['bookshelf/rack.py']);
    rmSync(join(root, 'bookshelf/rack.py'));
    expect(await defined('unshelve')).toEqual([]);
    const status = await server.call('index_status');
    expect(status.data.roots[0]).toMatchObject({ files: 5, pendingChanges: null, refresh: 'always' });
  });

  test('refresh auto: answers at once naming the changes pending, then reflects them once the watcher fired', async () => {
    const root = copyOf('python');
    const server = await serve('--root', root);
    const ready = await until(server, 'index_status', {}, (answer) => answer.data.roots[0].pendingChanges === 0);
    expect(ready.data.roots[0]).toMatchObject({ refresh: 'auto', watchError: null, pendingChanges: 0 });
    const before = (await server.call('repo_map')).data.index.generation;
    writeFileSync(join(root, 'bookshelf/shelf.py'), 'def shelve(book):\n    return book\n');
    const found = await until(server, 'find_symbol', { name: 'shelve' }, (answer) => answer.data.totals.definitions === 1);
    expect(found.data.index.generation).toBeGreaterThan(before);
    expect(found.data.index.pendingChanges).toBe(0);
    renameSync(join(root, 'bookshelf/shelf.py'), join(root, 'bookshelf/rack.py'));
    const moved = await until(server, 'find_symbol', { name: 'shelve' }, (answer) => answer.data.hits[0]?.path === 'bookshelf/rack.py');
    expect(moved.data.hits.map((hit: { path: string }) => hit.path)).toEqual(['bookshelf/rack.py']);
    rmSync(join(root, 'bookshelf/rack.py'));
    const gone = await until(server, 'find_symbol', { name: 'shelve' }, (answer) => answer.data.totals.definitions === 0);
    expect(gone.data.totals).toEqual({ definitions: 0, references: 0 });
    // The map after the changes is the CLI's on the same tree.
    const map = await server.call('repo_map', { max_tokens: 700 });
    expect(body(map)).toBe(await cliOut(['map', '--root', root, '--max-tokens', '700', '--cache-dir', join(scratch, `cli-auto-${copies}`)]));
  });

  test('refresh manual and files: nothing moves until asked, or until a named file changed', async () => {
    const root = copyOf('python');
    const manual = await serve('--root', root, '--refresh', 'manual');
    await manual.call('repo_map');
    writeFileSync(join(root, 'bookshelf/shelf.py'), 'def shelve(book):\n    return book\n');
    expect((await manual.call('find_symbol', { name: 'shelve' })).data.totals.definitions).toBe(0);
    expect((await manual.call('refresh')).data.changed).toBe(true);
    expect((await manual.call('find_symbol', { name: 'shelve' })).data.totals.definitions).toBe(1);
    expect((await manual.call('refresh')).data.changed).toBe(false);

    const other = copyOf('python');
    const files = await serve('--root', other, '--refresh', 'files');
    expect((await files.call('outline', { path: 'bookshelf/settings.py' })).text).not.toContain('def extra');
    writeFileSync(join(other, 'bookshelf/settings.py'), 'def extra():\n    pass\n', { flag: 'a' });
    expect((await files.call('find_symbol', { name: 'extra' })).data.totals.definitions).toBe(0);
    expect((await files.call('outline', { path: 'bookshelf/settings.py' })).text).toContain('  14: def extra()\n');
    expect((await files.call('find_symbol', { name: 'extra' })).data.totals.definitions).toBe(1);
  });

  test('bad inputs are error results of one sentence, and the server keeps serving', async () => {
    const root = copyOf('python');
    const server = await serve('--root', root);
    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      ['find_symbol', { name: 'Book', root: '/nowhere' }, `/nowhere is not a root this server serves (${root})`],
      ['symbol_at', { file: '/etc/passwd', line: 1 }, `/etc/passwd lies outside every root this server serves (${root})`],
      ['file_deps', { file: 'bookshelf/nothing.py' }, `file 'bookshelf/nothing.py' does not exist in ${root}`],
      ['symbol_at', { file: 'bookshelf/models.py', line: 0 }, /^MCP error -32602: Input validation error: Invalid arguments for tool symbol_at: .*line/],
      ['repo_map', { max_tokens: 'many' }, /^MCP error -32602: Input validation error: Invalid arguments for tool repo_map: .*max_tokens/],
      ['repo_map', { chat_files: ['bookshelf/nothing.py'] }, /^chat file 'bookshelf\/nothing.py' /],
      ['find_symbol', { name: 'Book', cursor: 'not-a-cursor' }, 'cursor is not one find_symbol gave: call it again without a cursor'],
    ];
    for (const [name, args, message] of cases) {
      const answer = await server.call(name, args);
      expect(answer.isError, name).toBe(true);
      expect(answer.text).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) : message);
      expect(answer.text).not.toContain('\n');
    }
    expect((await server.call('find_symbol', { name: 'Catalog' })).isError).toBe(false);
  });

  test('two roots at once: each call reads the root it names, or the one its path lies in', async () => {
    const python = copyOf('python');
    const go = copyOf('go');
    const server = await serve('--root', python, '--root', go, '--refresh', 'always');
    expect((await server.call('find_symbol', { name: 'Catalog', root: basename(python) })).data.totals.definitions).toBe(1);
    expect((await server.call('find_symbol', { name: 'Catalog', root: go })).data.totals.definitions).toBe(0);
    expect((await server.call('outline', { path: join(go, 'stock/store.go') })).data.index.root).toBe(go);
    const ambiguous = await server.call('find_symbol', { name: 'Catalog' });
    expect(ambiguous).toMatchObject({ isError: true, text: `this server serves several roots (${python}, ${go}): name one with root` });
    const status = await server.call('index_status');
    expect(status.data.roots.map((root: { root: string }) => root.root)).toEqual([python, go]);
  });

  test('initialize is answered while a cold root of 10,000 files is still being indexed', async () => {
    const root = join(scratch, 'cold-10k');
    for (let folder = 0; folder < 100; folder++) {
      mkdirSync(join(root, `pkg${folder}`), { recursive: true });
      for (let file = 0; file < 100; file++) {
        writeFileSync(
          join(root, `pkg${folder}`, `mod${file}.py`),
          `def f${folder}_${file}(x):\n    return g${file}(x)\n\n\nclass C${folder}_${file}:\n    pass\n`,
        );
      }
    }
    // One parse worker, and closed at the end: the cold index would otherwise take the machine from the other tests for a minute.
    const server = await serve('--root', root, '--answer-wait-ms', '200', '--jobs', '1');
    const status = await server.call('index_status');
    expect(status.data.roots[0]).toMatchObject({ files: 0, refreshedAt: null });
    if (status.data.roots[0].parsing) expect(status.data.roots[0].parsing.total).toBe(10_000);
    expect(status.data.roots[0].refreshingSince).not.toBe(null);
    const busy = await server.call('find_symbol', { name: 'f1_1' });
    expect(busy.isError).toBe(true);
    expect(busy.text).toMatch(
      new RegExp(
        `^${root} is being indexed for the first time \\(a refresh has been running for \\d+\\.\\d s(, \\d+ of 10000 files parsed)?\\); ask again in a few seconds$`,
      ),
    );
    await server.close();
  });
});
