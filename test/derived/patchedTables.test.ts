import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { expect, test } from 'vitest';
import { seededRandom } from '../../dist/bench/seededRandom.js';
import { encodeIdentifierTables, encodeLexicalTables } from '../../dist/src/derived/tablesCodec.js';
import { languageOf } from '../../dist/src/discover/languages.js';
import { importingFileOf } from '../../dist/src/imports/importingFile.js';
import { resolveImports } from '../../dist/src/imports/resolveImports.js';
import { openIndex } from '../../dist/src/indexing/indexRepository.js';
import { buildMap } from '../../dist/src/map/buildMap.js';
import { buildIdentifierTables } from '../../dist/src/rank/identifierTables.js';
import { buildLexicalTables } from '../../dist/src/rank/lexicalTables.js';
import { StageTimer } from '../../dist/src/stageTimer.js';
import { codeSlice } from '../support/codeSlice.js';

/**
 * A map after a change patches the last tables with the changed records (src/rank/patchTables.ts):
 * through 50 random edits, additions, removals and renames of real files, the tables each map
 * saved equal those built from every record, byte for byte, and every tenth map equals, byte for
 * byte and rank for rank, the map of a fresh index of the same tree. A map without a task leaves
 * the lexical tables alone; the next map with one patches them over every change since.
 */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const IMPORT_FIXTURES = fileURLToPath(new URL('../../fixtures/imports', import.meta.url));
const HUBS = /(^|\/)(__init__\.py|index\.[jt]s)$/;
const SOURCE = new Set(['.py', '.ts', '.tsx', '.js', '.go', '.rs', '.java']);
/** Names the slice defines, so that an edit's new code references them. */
const CALLED = ['buildPostings', 'resolveImports', 'patchIdentifierTables', 'countTerms', 'price_with_tax', 'Catalog', 'pageRank'];
const REQUEST = { maxTokens: 2048, query: 'patch the postings of changed files' };
const NO_TASK = { maxTokens: 2048 };

function sourceFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (SOURCE.has(extname(entry.name))) found.push(relative(root, join(dir, entry.name)));
    }
  };
  walk(root);
  return found.sort();
}

/** New code in the file's language: a definition with a fresh name that calls names defined elsewhere. */
function addedCode(path: string, name: string, called: string): string {
  switch (extname(path)) {
    case '.py':
      return `\n\ndef ${name}():\n    return ${called}()\n`;
    case '.go':
      return `\nfunc ${name}() { ${called}() }\n`;
    case '.rs':
      return `\nfn ${name}() { ${called}(); }\n`;
    case '.java':
      return `\nclass ${name} { void run() { ${called}(); } }\n`;
    default:
      return `\nexport function ${name}() { return ${called}(); }\n`;
  }
}

/** The tables every record of the store gives, built whole as the first map after an index builds them. */
async function builtTables(root: string, cacheDir: string) {
  const { store } = await openIndex({ root, cacheDir });
  try {
    const paths = [...store.stamps().keys()].sort();
    const records = paths.map((path) => store.rankPart(path));
    const files = paths.map((path, i) => ({
      path,
      definitions: records[i]?.definitions ?? [],
      referenceCounts: records[i]?.referenceCounts ?? { names: [], counts: [] },
      terms: records[i]?.terms,
    }));
    const saved = store.derivedValue('identifier-tables');
    const savedCopy = saved && new Uint8Array(saved);
    const savedLexical = store.derivedValue('lexical-tables');
    const savedLexicalCopy = savedLexical && new Uint8Array(savedLexical);
    const { graph } = await resolveImports(
      root,
      paths.map((path, i) => importingFileOf(path, languageOf(path), records[i])),
    );
    const lexical = encodeLexicalTables({ ...buildLexicalTables(files), pathsCrc: crc32(paths.join('\0')) });
    return { paths, bytes: encodeIdentifierTables(buildIdentifierTables(files, graph)), saved: savedCopy, lexical, savedLexical: savedLexicalCopy };
  } finally {
    await store.close();
  }
}

test('50 random edits, additions, removals and renames: each map patches the tables, equal to a build', { timeout: 240_000 }, async () => {
  const root = codeSlice(['rank', 'lexical', 'imports', 'derived']);
  cpSync(POLYGLOT, join(root, 'poly'), { recursive: true });
  // Re-export hubs: what a hub defines decides where its importers' imports end.
  for (const hubs of ['python-hubs', 'ecmascript-hubs']) cpSync(join(IMPORT_FIXTURES, hubs), join(root, hubs), { recursive: true });
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-patched-'));
  const random = seededRandom(20261127);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  await buildMap({ root, cacheDir, ...REQUEST });
  const done = { edit: 0, cut: 0, import: 0, add: 0, remove: 0, rename: 0 };
  for (let step = 1; step <= 50; step++) {
    const files = sourceFiles(root);
    // Every fifth step a hub's.
    const path = pick(step % 5 === 0 ? files.filter((file) => HUBS.test(file)) : files);
    const full = join(root, path);
    const sort = pick(['edit', 'edit', 'cut', 'import', 'add', 'remove', 'rename'] as const);
    done[sort]++;
    if (sort === 'edit') writeFileSync(full, readFileSync(full, 'utf8') + addedCode(path, `fresh${step}`, pick(CALLED)));
    if (sort === 'cut') {
      const lines = readFileSync(full, 'utf8').split('\n');
      const at = Math.floor(random() * lines.length);
      lines.splice(at, 1 + Math.floor(random() * 20));
      writeFileSync(full, lines.join('\n'));
    }
    if (sort === 'import') {
      // An import of a sibling: the file's imports change, so they are resolved again.
      const sibling = pick(files.filter((other) => dirname(other) === dirname(path) && extname(other) === '.ts')) ?? path;
      writeFileSync(full, `import { x${step} } from './${basename(sibling, '.ts')}.js';\n${readFileSync(full, 'utf8')}`);
    }
    if (sort === 'add' || sort === 'rename') {
      const folder = join(root, pick(['src/rank', 'src/extra', 'poly/api', `moved${step % 3}`]));
      mkdirSync(folder, { recursive: true });
      const target = join(folder, `n${step}-${basename(path)}`);
      if (sort === 'add') cpSync(full, target);
      else renameSync(full, target);
    }
    if (sort === 'remove' && files.length > 20) rmSync(full);

    // Two maps in four without a task: the lexical tables then lag behind by a change or two.
    const request = step % 4 === 1 || step % 4 === 2 ? NO_TASK : REQUEST;
    const timer = new StageTimer();
    const map = await buildMap({ root, cacheDir, ...request, timer });
    const stages = [...timer.report().matchAll(/([a-z ]+) [\d.]+ ms/g)].map((match) => match[1]!.trim());
    expect(stages, `step ${step} (${sort} ${path})`).toContain('patch tables');
    if (request === NO_TASK)
      expect(
        stages.filter((stage) => stage.includes('lexical')),
        `step ${step}`,
      ).toEqual([]);
    else
      expect(
        stages.filter((stage) => stage.includes('lexical')),
        `step ${step}`,
      ).toEqual(['read lexical tables', 'patch lexical tables']);
    expect(stages, `step ${step}`).not.toContain('build tables');
    // A file parsed: the last tables were read while the worker parsed, and the stale ones saved were not read at all.
    if (sort !== 'remove') expect(stages, `step ${step} (${sort})`).not.toContain('read last tables');
    if (sort !== 'remove') expect(stages, `step ${step} (${sort})`).not.toContain('read tables');
    const { paths, bytes, saved, lexical, savedLexical } = await builtTables(root, cacheDir);
    expect(paths.includes(path), `step ${step}`).toBe(existsSync(full));
    expect(saved && Buffer.from(saved).equals(Buffer.from(bytes)), `step ${step} (${sort} ${path}): patched tables differ from built ones`).toBe(true);
    // Saved at this generation only by a map with a task.
    if (request === NO_TASK) expect(savedLexical, `step ${step}`).toBeUndefined();
    else
      expect(savedLexical && Buffer.from(savedLexical).equals(Buffer.from(lexical)), `step ${step}: patched lexical tables differ from built ones`).toBe(true);

    if (step % 10 === 0) {
      const fresh = await buildMap({ root, cacheDir: mkdtempSync(join(tmpdir(), 'repomap-fresh-')), ...request });
      expect(map.text, `step ${step}`).toBe(fresh.text);
      const ranks = map.ranked.files;
      const freshRanks = fresh.ranked.files;
      expect(ranks.map((file) => file.path)).toEqual(freshRanks.map((file) => file.path));
      ranks.forEach((file, i) => {
        expect(Math.abs(file.rank - freshRanks[i]!.rank)).toBeLessThanOrEqual(1e-12);
      });
    }
  }
  expect(Math.min(...Object.values(done))).toBeGreaterThan(2);
});
