import { describe, expect, test } from 'vitest';
import { seededRandom } from '../../dist/bench/seededRandom.js';
import { encodeStamps } from '../../dist/src/record/recordCodec.js';
import { StampTable } from '../../dist/src/record/stampTable.js';
import { storedStamp } from '../support/storedStamp.js';

describe('StampTable', () => {
  test('reads saved stamps in place, by path and in path order, with changes on top', () => {
    const table = StampTable.of([
      ['b.py', storedStamp(2)],
      ['a-b.py', storedStamp(1)],
      ['a/z.rs', storedStamp(3, { skipped: 'timeout', retries: 2, fileTimeoutMs: 50 })],
    ]);
    expect(table.sorted).toBe(true);
    expect(table.keys()).toEqual(['a-b.py', 'a/z.rs', 'b.py']);
    expect(table.get('a/z.rs')).toEqual(storedStamp(3, { skipped: 'timeout', retries: 2, fileTimeoutMs: 50 }));
    expect(table.get('a.py')).toBeUndefined();
    // Unchanged, it encodes to what encodeStamps writes of the same stamps in path order.
    const inOrder = new Map([
      ['a-b.py', storedStamp(1)],
      ['a/z.rs', storedStamp(3, { skipped: 'timeout', retries: 2, fileTimeoutMs: 50 })],
      ['b.py', storedStamp(2)],
    ]);
    expect(Buffer.from(table.encode()).equals(Buffer.from(encodeStamps(inOrder)))).toBe(true);
    table.set('a.py', storedStamp(9));
    table.delete('b.py');
    table.set('a/z.rs', storedStamp(4));
    expect(table.keys()).toEqual(['a-b.py', 'a.py', 'a/z.rs']);
    expect(table.get('a/z.rs')).toEqual(storedStamp(4));
    expect(table.get('b.py')).toBeUndefined();
    expect([...table]).toEqual([
      ['a-b.py', storedStamp(1)],
      ['a.py', storedStamp(9)],
      ['a/z.rs', storedStamp(4)],
    ]);
    expect(StampTable.decode(table.encode())!.keys()).toEqual(['a-b.py', 'a.py', 'a/z.rs']);
  });

  test('stamps set only for saved paths (an edit) encode to encodeStamps’ bytes, the bytes read left as they were', () => {
    const saved = encodeStamps(
      new Map([
        ['a.py', storedStamp(1)],
        ['b/c.rs', storedStamp(2)],
        ['d.go', storedStamp(3)],
      ]),
    );
    const before = Buffer.from(saved);
    const table = StampTable.decode(saved)!;
    table.set('d.go', storedStamp(7, { skipped: 'worker-error', retries: 1 }));
    table.set('a.py', storedStamp(8));
    const expected = new Map([
      ['a.py', storedStamp(8)],
      ['b/c.rs', storedStamp(2)],
      ['d.go', storedStamp(7, { skipped: 'worker-error', retries: 1 })],
    ]);
    expect(Buffer.from(table.encode()).equals(Buffer.from(encodeStamps(expected)))).toBe(true);
    expect(Buffer.from(saved).equals(before)).toBe(true);
  });

  test('matches files against the stamps, and names the stamps no file has', () => {
    const table = StampTable.of([
      ['a.py', storedStamp(1)],
      ['b.py', storedStamp(2)],
      ['c.py', storedStamp(3)],
      ['d.py', storedStamp(4)],
    ]);
    table.delete('c.py');
    table.set('e.py', storedStamp(5));
    table.set('f.py', storedStamp(6));
    const files = ['a.py', 'c.py', 'd.py', 'e.py', 'g.py'];
    expect(table.match(files)).toEqual({ stamps: [storedStamp(1), undefined, storedStamp(4), storedStamp(5), undefined], unmatched: ['b.py', 'f.py'] });
    // Out of path order, each file is looked up alone: the same answer.
    expect(table.match([...files].reverse())).toEqual({
      stamps: [undefined, storedStamp(5), storedStamp(4), undefined, storedStamp(1)],
      unmatched: ['b.py', 'f.py'],
    });
  });

  test('stamps an older build saved out of path order read the same, and are not taken as sorted', () => {
    const older = encodeStamps(
      new Map([
        ['z.go', storedStamp(1)],
        ['a.go', storedStamp(2)],
        ['m/n.go', storedStamp(3)],
      ]),
    );
    const table = StampTable.decode(older)!;
    expect(table.sorted).toBe(false);
    expect(table.keys()).toEqual(['a.go', 'm/n.go', 'z.go']);
    expect(table.match(['a.go', 'm/n.go', 'z.go']).stamps).toEqual([storedStamp(2), storedStamp(3), storedStamp(1)]);
    expect(StampTable.decode(table.encode())!.sorted).toBe(true);
  });

  test('bytes that name a path twice, or that encodeStamps did not write, decode to null', () => {
    const once = encodeStamps(new Map([['a.py', storedStamp(1)]]));
    const twice = Uint8Array.from([...once.subarray(0, 8 + 72), ...once.subarray(8, 8 + 72), ...once.subarray(8 + 72), 0, ...once.subarray(8 + 72)]);
    new DataView(twice.buffer).setUint32(0, 2, true);
    expect(StampTable.decode(twice)).toBeNull();
    expect(StampTable.decode(new Uint8Array(3))).toBeNull();
    expect(StampTable.decode(once.subarray(0, 60))).toBeNull();
  });

  test('after random sets and deletes, it answers as a Map of the same changes would', () => {
    const next = seededRandom(26);
    const random = (below: number) => Math.floor(next() * below);
    const names = Array.from({ length: 60 }, (_, i) => `${['src', 'src/a', 'src-b', 'lib'][i % 4]}/${String.fromCharCode(97 + (i % 26))}${i}.py`);
    for (let round = 0; round < 20; round++) {
      const saved = new Map(names.filter(() => random(3) > 0).map((path, i) => [path, storedStamp(i)] as const));
      const table = StampTable.of(saved);
      const expected = new Map(saved);
      for (let step = 0; step < 40; step++) {
        const path = names[random(names.length)]!;
        if (random(2) === 0) {
          table.delete(path);
          expected.delete(path);
        } else {
          const value = storedStamp(1000 + step);
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
