import { describe, expect, test } from 'vitest';
import { encodeIdentifierTables, encodeLexicalTables } from '../../dist/src/derived/tablesCodec.js';
import { countFileTerms } from '../../dist/src/lexical/terms.js';
import { buildIdentifierTables, type FileTags } from '../../dist/src/rank/identifierTables.js';
import { buildLexicalTables, type LexicalTables } from '../../dist/src/rank/lexicalTables.js';
import { patchIdentifierTables, patchLexicalTables } from '../../dist/src/rank/patchTables.js';
import { identifierTablesInChunks, lexicalTablesInChunks } from '../../dist/src/rank/tablesInChunks.js';

/** The tables after a change, patched from the tables before it, against a build over every file: byte for byte. */

/** Park–Miller: the same files and changes on every run. */
function randomOf(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 48271) % 2147483647;
    return state % below;
  };
}

// Few names, kinds and words, so that changes add names, drop the last use of others, and share terms.
const NAMES = ['run', 'Parser', 'parse_config', '_private', 'len', 'get', 'handleRequest', 'Z', 'a', 'Ärger', 'load', 'save', 'mainLoop', 'x_y'];
const KINDS = ['function', 'class', 'method', 'field', '', 'constant'];
/** Kinds met seldom, one sorting first: their coming and going renumbers every kind. */
const RARE_KINDS = ['Alias', 'struct'];
const WORDS = ['config', 'parse', 'error', 'server', 'retry', 'token', 'cache', 'map'];

function randomTags(random: (below: number) => number, path: string): FileTags {
  const pick = <T>(list: readonly T[]): T => list[random(list.length)]!;
  const definitions = Array.from({ length: random(6) }, () => ({
    // Now and then a name no other file has, sorting anywhere.
    name: random(10) === 0 ? `${pick(NAMES)}${random(1000)}` : pick(NAMES),
    line: 1 + random(8),
    kind: random(40) === 0 ? pick(RARE_KINDS) : pick(KINDS),
  }));
  const names: string[] = [];
  const counts: number[] = [];
  // Repeats on purpose: the build sums a name's counts within a file.
  for (let i = random(7); i > 0; i--) {
    names.push(pick(NAMES));
    counts.push(1 + random(4));
  }
  const text = Array.from({ length: random(10) }, () => pick(WORDS)).join(' ');
  return { path, definitions, referenceCounts: { names, counts }, terms: countFileTerms(path, Buffer.from(text)) };
}

function randomImports(random: (below: number) => number, fileCount: number) {
  const importOffsets = new Int32Array(fileCount + 1);
  const targets: number[] = [];
  for (let file = 0; file < fileCount; file++) {
    const linked = new Set<number>();
    for (let i = random(3); i > 0; i--) linked.add(random(fileCount));
    linked.delete(file);
    targets.push(...[...linked].sort((a, b) => a - b));
    importOffsets[file + 1] = targets.length;
  }
  return { importOffsets, importTargets: Int32Array.from(targets) };
}

const byPath = (a: FileTags, b: FileTags) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const lexicalBytes = (tables: LexicalTables) => Buffer.from(encodeLexicalTables({ ...tables, pathsCrc: 0 }));

describe('tables patched after a change', () => {
  test('equal a full build, byte for byte, through 300 random edits, additions, removals and renames', () => {
    const random = randomOf(20261127);
    let files = Array.from({ length: 40 }, (_, i) => randomTags(random, `src/m${i}.py`)).sort(byPath);
    let tables = buildIdentifierTables(files, randomImports(random, files.length));
    let lexical = buildLexicalTables(files);
    let lexicalPaths = files.map((file) => file.path);
    let serial = 40;
    const kinds = { edit: 0, add: 0, remove: 0, rename: 0 };
    for (let step = 0; step < 300; step++) {
      const byPathNow = new Map(files.map((file) => [file.path, file]));
      const changed: FileTags[] = [];
      // One to four changes a step, each of a random sort.
      for (let n = 1 + random(4); n > 0; n--) {
        const paths = [...byPathNow.keys()];
        const path = paths[random(paths.length)]!;
        const sort = (['edit', 'add', 'remove', 'rename'] as const)[random(4)]!;
        kinds[sort]++;
        if (sort === 'edit') byPathNow.set(path, randomTags(random, path));
        if (sort === 'add' || sort === 'rename') {
          const added = `${['lib', 'src', 'test'][random(3)]}/n${serial++}.py`;
          byPathNow.set(added, sort === 'rename' ? { ...byPathNow.get(path)!, path: added } : randomTags(random, added));
          changed.push(byPathNow.get(added)!);
        }
        if ((sort === 'remove' || sort === 'rename') && byPathNow.size > 2) byPathNow.delete(path);
        if (sort === 'edit') changed.push(byPathNow.get(path)!);
      }
      files = [...byPathNow.values()].sort(byPath);
      const stillThere = changed.filter((tags) => byPathNow.get(tags.path) === tags);
      const imports = randomImports(random, files.length);
      const full = buildIdentifierTables(files, imports);
      const patched = patchIdentifierTables(tables, { paths: files.map((file) => file.path), changed: stillThere }, imports);
      expect(patched, `step ${step}`).not.toBeNull();
      expect(Buffer.from(encodeIdentifierTables(patched!)).equals(Buffer.from(encodeIdentifierTables(full))), `step ${step}`).toBe(true);
      tables = patched!;
      const patchedLexical = patchLexicalTables(lexical, lexicalPaths, { paths: files.map((file) => file.path), changed: stillThere });
      expect(patchedLexical && lexicalBytes(patchedLexical).equals(lexicalBytes(buildLexicalTables(files))), `step ${step}`).toBe(true);
      lexical = patchedLexical!;
      lexicalPaths = files.map((file) => file.path);
    }
    expect(Math.min(...Object.values(kinds))).toBeGreaterThan(100);
  });

  test('decline what only a build makes: a file missing its tags, paths out of order, no reference on either side', () => {
    const random = randomOf(7);
    const files = Array.from({ length: 5 }, (_, i) => randomTags(random, `f${i}.py`));
    const tables = buildIdentifierTables(files);
    const empty = { importOffsets: new Int32Array(7), importTargets: new Int32Array(0) };
    const paths = [...files.map((file) => file.path), 'g.py'];
    expect(patchIdentifierTables(tables, { paths, changed: [] }, empty)).toBeNull();
    expect(patchIdentifierTables(tables, { paths: [...paths].reverse(), changed: [randomTags(random, 'g.py')] }, empty)).toBeNull();
    const unreferenced = files.map((file) => ({ ...file, referenceCounts: { names: [], counts: [] } }));
    const noReferences = buildIdentifierTables(unreferenced);
    const one = { importOffsets: new Int32Array(6), importTargets: new Int32Array(0) };
    expect(patchIdentifierTables(noReferences, { paths: files.map((file) => file.path), changed: [files[0]!] }, one)).toBeNull();
    expect(patchIdentifierTables(tables, { paths: files.map((file) => file.path), changed: unreferenced }, one)).toBeNull();
    const lexical = buildLexicalTables(files);
    const oldPaths = files.map((file) => file.path);
    expect(patchLexicalTables(lexical, oldPaths, { paths, changed: [] })).toBeNull();
    expect(patchLexicalTables(lexical, oldPaths, { paths: [...paths].reverse(), changed: [randomTags(random, 'g.py')] })).toBeNull();
    // Tables over other files than the paths said to be theirs.
    expect(patchLexicalTables(lexical, oldPaths.slice(1), { paths, changed: [randomTags(random, 'g.py')] })).toBeNull();
    expect(patchLexicalTables(lexical, oldPaths, { paths, changed: [randomTags(random, 'g.py')] })).not.toBeNull();
  });
});

describe('tables built in chunks', () => {
  test('equal a build over every file, byte for byte, at every chunk size', () => {
    const random = randomOf(11);
    const files = Array.from({ length: 60 }, (_, i) => randomTags(random, `src/m${String(i).padStart(2, '0')}.py`));
    const imports = randomImports(random, files.length);
    const full = Buffer.from(encodeIdentifierTables(buildIdentifierTables(files, imports)));
    const fullLexical = lexicalBytes(buildLexicalTables(files));
    for (const chunkFiles of [1, 2, 7, 59, 60, 61]) {
      const chunks = identifierTablesInChunks(chunkFiles);
      const lexicalChunks = lexicalTablesInChunks(chunkFiles);
      for (const file of files) expect(chunks.add(file) && lexicalChunks.add(file)).toBe(true);
      const built = chunks.finish(imports);
      expect(built && Buffer.from(encodeIdentifierTables(built)).equals(full), `chunks of ${chunkFiles}`).toBe(true);
      const builtLexical = lexicalChunks.finish(null);
      expect(builtLexical && lexicalBytes(builtLexical).equals(fullLexical), `lexical chunks of ${chunkFiles}`).toBe(true);
    }
  });

  test('a first chunk that references nothing makes them decline: aider’s rule for such a tree is made over all of it', () => {
    const random = randomOf(13);
    const files = Array.from({ length: 6 }, (_, i) => randomTags(random, `f${i}.py`));
    const chunks = identifierTablesInChunks(3);
    for (const file of files.slice(0, 3)) expect(chunks.add({ ...file, referenceCounts: { names: [], counts: [] } })).toBe(true);
    expect(chunks.add(files[3]!)).toBe(true);
    expect(chunks.add(files[4]!)).toBe(true);
    expect(chunks.add(files[5]!)).toBe(false);
    expect(chunks.finish(randomImports(random, files.length))).toBeNull();
  });
});
