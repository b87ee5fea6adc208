import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEXICAL_KEY, TABLES_KEY } from '../src/derived/derivedTables.js';
import { openIndex } from '../src/indexing/indexRepository.js';

/**
 * Tables patched after a change, on real repositories: `node dist/bench/patchCheck.js DIR...`
 * copies each tree (without .git), indexes it, edits two source files (code appended, lines
 * cut), adds one and removes one, then maps with that store (which patches its tables) and
 * with a fresh one, and reports any map that differs (the default map, a task map at 4096
 * tokens, the JSON map) and whether the two stores' tables differ, byte for byte. The test (test/derived/patchedTables.test.ts) runs on a slice of our
 * own code; real trees have manifests, hubs and files the slice lacks.
 */
const CLI = fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url));
const SOURCE = new Set(['.py', '.go', '.ts', '.js', '.rs', '.java']);
const SKIPPED = new Set(['.git', 'node_modules', 'vendor', 'target', 'dist', 'build']);
const VARIANTS: Record<string, readonly string[]> = {
  default: [],
  task: ['-t', '4096', '-q', 'handle the request error when the connection closes'],
  json: ['--format', 'json', '-t', '2048'],
};

function sourceFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) walk(join(dir, entry.name));
      else if (entry.isFile() && SOURCE.has(extname(entry.name))) found.push(relative(root, join(dir, entry.name)));
    }
  };
  walk(root);
  return found.sort();
}

function repomap(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, timeout: 600_000 });
}

/** Whether two stores of `root` hold the same value under `key`, byte for byte. */
async function sameTables(root: string, key: string, ...cacheDirs: [string, string]): Promise<boolean> {
  const tables: (Buffer | undefined)[] = [];
  for (const cacheDir of cacheDirs) {
    const { store } = await openIndex({ root, cacheDir });
    const value = store.derivedValue(key);
    tables.push(value && Buffer.from(value));
    await store.close();
  }
  return tables[0] !== undefined && tables[1] !== undefined && tables[0].equals(tables[1]);
}

async function check(source: string): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'repomap-patch-check-'));
  const root = join(work, basename(source));
  const patched = join(work, 'cache');
  const fresh = join(work, 'fresh');
  try {
    cpSync(source, root, { recursive: true, filter: (path) => basename(path) !== '.git' });
    if (repomap(['index', root, '--cache-dir', patched]).status !== 0) return [`${source}: the index failed`];
    const files = sourceFiles(root);
    if (files.length < 4) return [`${source}: fewer than 4 source files`];
    const at = (share: number) => join(root, files[Math.floor(files.length * share)]!);
    appendFileSync(at(1 / 9), '\n\nfunction addedByPatchCheck() { return 1; }\n');
    const cut = readFileSync(at(3 / 9), 'utf8').split('\n');
    cut.splice(4, 11);
    writeFileSync(at(3 / 9), cut.join('\n'));
    copyFileSync(at(5 / 9), join(dirname(at(5 / 9)), `copied_${basename(at(5 / 9))}`));
    rmSync(at(7 / 9));
    const problems: string[] = [];
    let stages = '';
    for (const [name, args] of Object.entries(VARIANTS)) {
      const first = repomap(['map', root, '--cache-dir', patched, '--verbose', ...args]);
      stages ||= /patch tables/.test(first.stderr) ? 'patched' : 'NOT patched';
      if (name === 'task' && !/patch lexical tables/.test(first.stderr)) problems.push(`${source}: the map with a task did not patch the lexical tables`);
      const again = repomap(['map', root, '--cache-dir', fresh, ...args]);
      if (first.status !== 0 || again.status !== 0) problems.push(`${source} ${name}: exit ${first.status} / ${again.status}`);
      else if (first.stdout !== again.stdout) problems.push(`${source} ${name}: the map after the change differs from a fresh store's`);
    }
    if (!(await sameTables(root, TABLES_KEY, patched, fresh))) problems.push(`${source}: the patched tables differ from a fresh store's`);
    // Patched by the map with a task, after the default map left them behind.
    if (!(await sameTables(root, LEXICAL_KEY, patched, fresh))) problems.push(`${source}: the patched lexical tables differ from a fresh store's`);
    if (stages !== 'patched') problems.push(`${source}: the first map after the change did not patch the tables`);
    console.log(`${source}\t${stages}\t${problems.length === 0 ? 'maps the same' : `${problems.length} problem(s)`}`);
    return problems;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const dirs = process.argv.slice(2);
const missing = dirs.filter((dir) => !statSync(dir, { throwIfNoEntry: false })?.isDirectory());
if (dirs.length === 0 || missing.length > 0) {
  console.error(missing.length > 0 ? `not a folder: ${missing.join(', ')}` : 'usage: node dist/bench/patchCheck.js DIR...');
  process.exit(1);
}
const problems: string[] = [];
for (const dir of dirs) problems.push(...(await check(dir)));
for (const problem of problems) console.error(problem);
process.exit(problems.length === 0 ? 0 : 1);
