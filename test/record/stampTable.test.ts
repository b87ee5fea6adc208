import { describe, expect, test } from 'vitest';
import { encodeStamps, type StoredStamp } from '../../dist/src/record/recordCodec.js';
import { StampTable } from '../../dist/src/record/stampTable.js';

const stamp = (i: number, changes: Partial<StoredStamp> = {}): StoredStamp => ({
  mtimeMs: 1_700_000_000_000 + i,
  size: 100 + i,
  ctimeMs: 1_700_000_000_500 + i,
  ino: 2 ** 40 + i,
  definitions: 3 * i,
  references: 7 * i,
  skipped: null,
  fileTimeoutMs: 10_000,
  retries: 0,
  ...changes,
});

/** A small random generator, so that a failing case can be run again. */
function randomOf(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

describe('StampTable', () => {
  test('reads saved stamps in place, by path and in path order, with changes on top', () => {
    const table = StampTable.of([
      ['b.py', stamp(2)],
      ['a-b.py', stamp(1)],
      ['a/z.rs', stamp(3, { skipped: 'timeout', retries: 2, fileTimeoutMs: 50 })],
    ]);
    expect(table.sorted).toBe(true);
    expect(table.keys()).toEqual(['a-b.py', 'a/z.rs', 'b.py']);
    expect(table.get('a/z.rs')).toEqual(stamp(3, { skipped: 'timeout', retries: 2, fileTimeoutMs: 50 }));
    expect(table.get('a.py')).toBeUndefined();
    table.set('a.py', stamp(9));
    table.delete('b.py');
    table.set('a/z.rs', stamp(4));
    expect(table.keys()).toEqual(['a-b.py', 'a.py', 'a/z.rs']);
    expect(table.get('a/z.rs')).toEqual(stamp(4));
    expect(table.get('b.py')).toBeUndefined();
    expect([...table]).toEqual([
      ['a-b.py', stamp(1)],
      ['a.py', stamp(9)],
      ['a/z.rs', stamp(4)],
    ]);
    expect(StampTable.decode(table.encode())!.keys()).toEqual(['a-b.py', 'a.py', 'a/z.rs']);
  });

  test('matches files against the stamps, and names the stamps no file has', () => {
    const table = StampTable.of([
      ['a.py', stamp(1)],
      ['b.py', stamp(2)],
      ['c.py', stamp(3)],
      ['d.py', stamp(4)],
    ]);
    table.delete('c.py');
    table.set('e.py', stamp(5));
    table.set('f.py', stamp(6));
    const files = ['a.py', 'c.py', 'd.py', 'e.py', 'g.py'];
    expect(table.match(files)).toEqual({ stamps: [stamp(1), undefined, stamp(4), stamp(5), undefined], unmatched: ['b.py', 'f.py'] });
    // Out of path order, each file is looked up alone: the same answer.
    expect(table.match([...files].reverse())).toEqual({ stamps: [undefined, stamp(5), stamp(4), undefined, stamp(1)], unmatched: ['b.py', 'f.py'] });
  });

  test('stamps an older build saved out of path order read the same, and are not taken as sorted', () => {
    const older = encodeStamps(
      new Map([
        ['z.go', stamp(1)],
        ['a.go', stamp(2)],
        ['m/n.go', stamp(3)],
      ]),
    );
    const table = StampTable.decode(older)!;
    expect(table.sorted).toBe(false);
    expect(table.keys()).toEqual(['a.go', 'm/n.go', 'z.go']);
    expect(table.match(['a.go', 'm/n.go', 'z.go']).stamps).toEqual([stamp(2), stamp(3), stamp(1)]);
    expect(StampTable.decode(table.encode())!.sorted).toBe(true);
  });

  test('bytes that name a path twice, or that encodeStamps did not write, decode to null', () => {
    const once = encodeStamps(new Map([['a.py', stamp(1)]]));
    const twice = Uint8Array.from([...once.subarray(0, 8 + 72), ...once.subarray(8, 8 + 72), ...once.subarray(8 + 72), 0, ...once.subarray(8 + 72)]);
    new DataView(twice.buffer).setUint32(0, 2, true);
    expect(StampTable.decode(twice)).toBeNull();
    expect(StampTable.decode(new Uint8Array(3))).toBeNull();
    expect(StampTable.decode(once.subarray(0, 60))).toBeNull();
  });

  test('after random sets and deletes, it answers as a Map of the same changes would', () => {
    const random = randomOf(26);
    const names = Array.from({ length: 60 }, (_, i) => `${['src', 'src/a', 'src-b', 'lib'][i % 4]}/${String.fromCharCode(97 + (i % 26))}${i}.py`);
    for (let round = 0; round < 20; round++) {
      const saved = new Map(names.filter(() => random(3) > 0).map((path, i) => [path, stamp(i)] as const));
      const table = StampTable.of(saved);
      const expected = new Map(saved);
      for (let step = 0; step < 40; step++) {
        const path = names[random(names.length)]!;
        if (random(2) === 0) {
          table.delete(path);
          expected.delete(path);
        } else {
          const value = stamp(1000 + step);
          table.set(path, value);
          expected.set(path, value);
        }
      }
      const sortedExpected = [...expected].sort(([a], [b]) => (a < b ? -1 : 1));
      expect([...table]).toEqual(sortedExpected);
      // Encoded with runs of saved rows copied: the same stamps back.
      expect([...StampTable.decode(table.encode())!]).toEqual(sortedExpected);
      const files = names.filter(() => random(2) === 0).sort();
      const present = new Set(files);
      expect(table.match(files)).toEqual({
        stamps: files.map((path) => expected.get(path)),
        unmatched: sortedExpected.map(([path]) => path).filter((path) => !present.has(path)),
      });
    }
  });
});
