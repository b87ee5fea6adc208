import { describe, expect, test } from 'vitest';
import { appendWithoutBareFiles, bareFileEntry, type EntryCode, entryOf } from '../../dist/src/rank/entryCodes.js';
import { buildIdentifierTables } from '../../dist/src/rank/identifierTables.js';
import { rankDefinitions } from '../../dist/src/rank/rankDefinitions.js';
import {
  definerSlots,
  definitionsOfSlot,
  fileIdOf,
  fileOfSlot,
  filePaths,
  identifierNames,
  identOf,
  importersOf,
  importsOf,
  linesOfSlot,
  nameOfSlot,
  pathOfFile,
  pathOfSlot,
  referencedNames,
} from '../../dist/src/rank/tableLookups.js';

/** What code outside src/rank/ reads of the identifier tables, and the ranked list's entry codes. */
const tables = buildIdentifierTables([
  { path: 'b.py', definitions: [{ name: 'load', line: 9, kind: 'function' }], referenceCounts: { names: ['Store'], counts: [2] } },
  {
    path: 'a.py',
    definitions: [
      { name: 'Store', line: 3, kind: 'class' },
      { name: 'load', line: 12 },
      { name: 'load', line: 5, kind: 'method' },
    ],
    referenceCounts: { names: [], counts: [] },
  },
]);

describe('table lookups', () => {
  test('files by id and by path, in path order', () => {
    expect(filePaths(tables)).toEqual(['a.py', 'b.py']);
    expect(fileIdOf(tables, 'b.py')).toBe(1);
    expect(fileIdOf(tables, 'c.py')).toBeUndefined();
    expect(pathOfFile(tables, 0)).toBe('a.py');
  });

  test("a name's definer slots, one per file, with their lines and kinds", () => {
    const slots = definerSlots(tables, 'load');
    expect(slots.map((slot) => [pathOfSlot(tables, slot), fileOfSlot(tables, slot), nameOfSlot(tables, slot)])).toEqual([
      ['a.py', 0, 'load'],
      ['b.py', 1, 'load'],
    ]);
    expect(Array.from(linesOfSlot(tables, slots[0]!))).toEqual([5, 12]);
    expect(definitionsOfSlot(tables, slots[0]!)).toEqual([
      { line: 5, kind: 'method' },
      { line: 12, kind: '' },
    ]);
    expect(definerSlots(tables, 'save')).toEqual([]);
  });

  test('identifiers are found alike by scan and, after many lookups, by index', () => {
    const ids = () => ['Store', 'load', 'save'].map((name) => identOf(tables, name));
    const scanned = ids();
    expect(scanned[2]).toBe(-1);
    for (let i = 0; i < 300; i++) ids();
    expect(ids()).toEqual(scanned);
  });
});

describe('imports and references by file', () => {
  // c.py imports a.py and b.py; b.py imports a.py.
  const linked = buildIdentifierTables(
    [
      { path: 'a.py', definitions: [{ name: 'Store', line: 1 }], referenceCounts: { names: [], counts: [] } },
      { path: 'b.py', definitions: [{ name: 'load', line: 2 }], referenceCounts: { names: ['Store'], counts: [1] } },
      { path: 'c.py', definitions: [], referenceCounts: { names: ['load', 'Store', 'print'], counts: [1, 3, 1] } },
    ],
    { importOffsets: Int32Array.of(0, 0, 1, 3), importTargets: Int32Array.of(0, 0, 1) },
  );

  test('what a file imports, and the files importing it', () => {
    expect(Array.from(importsOf(linked, 2))).toEqual([0, 1]);
    expect(Array.from(importsOf(linked, 0))).toEqual([]);
    expect(importersOf(linked, 0)).toEqual([1, 2]);
    expect(importersOf(linked, 1)).toEqual([2]);
    expect(importersOf(linked, 2)).toEqual([]);
  });

  test('the names a file references, in identifier order; with no references anywhere, the names it defines', () => {
    expect(identifierNames(linked)).toEqual(['Store', 'load', 'print']);
    expect(referencedNames(linked, 2)).toEqual(['Store', 'load', 'print']);
    expect(referencedNames(linked, 0)).toEqual([]);
    expect(referencedNames(tables, 0)).toEqual([]);
    expect(referencedNames(tables, 1)).toEqual(['Store']);
    const unreferenced = buildIdentifierTables([{ path: 'a.py', definitions: [{ name: 'Store', line: 1 }], referenceCounts: { names: [], counts: [] } }]);
    expect(referencedNames(unreferenced, 0)).toEqual(['Store']);
  });
});

describe('entry codes', () => {
  const codes = rankDefinitions(tables).entryCodes;
  const described = (list: readonly EntryCode[]) => list.map((code) => `${entryOf(tables, code).path} ${entryOf(tables, code).name}`);

  test('the ranked list: each definer slot once (both files define names, so no bare file); read back', () => {
    expect(described(codes).sort()).toEqual(['a.py Store', 'a.py load', 'b.py load']);
    expect(entryOf(tables, bareFileEntry(1))).toEqual({ path: 'b.py', name: null, lines: new Int32Array(0) });
    const store = codes.find((code) => entryOf(tables, code).name === 'Store');
    expect(entryOf(tables, store!)).toEqual({ path: 'a.py', name: 'Store', lines: Int32Array.of(3) });
  });

  test('bare file entries left out by file id, definitions kept', () => {
    const list = [bareFileEntry(0)];
    appendWithoutBareFiles(list, [...codes, bareFileEntry(0), bareFileEntry(1)], Uint8Array.of(1, 0));
    expect(described(list)).toEqual(['a.py null', ...described(codes), 'b.py null']);
  });
});
