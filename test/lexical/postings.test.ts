import { describe, expect, test } from 'vitest';
import { buildPostings, type Postings } from '../../dist/src/lexical/postings.js';
import type { TermCounts } from '../../dist/src/lexical/terms.js';

const terms = (pairs: [number, number][]): TermCounts => ({
  hashes: Int32Array.from(pairs, ([hash]) => hash),
  counts: Int32Array.from(pairs, ([, count]) => count),
});

/** The postings by their definition: each distinct hash ascending (signed), its files ascending with their counts. */
function reference(perFile: readonly TermCounts[]): Postings {
  const byHash = new Map<number, [number, number][]>();
  perFile.forEach((file, id) => {
    file.hashes.forEach((hash, i) => {
      byHash.set(hash, [...(byHash.get(hash) ?? []), [id, file.counts[i]!]]);
    });
  });
  const hashes = [...byHash.keys()].sort((a, b) => a - b);
  const entries = hashes.flatMap((hash) => byHash.get(hash)!);
  const offsets = [0];
  for (const hash of hashes) offsets.push(offsets.at(-1)! + byHash.get(hash)!.length);
  return {
    hashes: Int32Array.from(hashes),
    offsets: Int32Array.from(offsets),
    files: Int32Array.from(entries, ([file]) => file),
    counts: Int32Array.from(entries, ([, count]) => count),
    fileTotals: Int32Array.from(perFile, (file) => file.counts.reduce((sum, count) => sum + count, 0)),
  };
}

describe('postings', () => {
  test('terms by signed hash, each term’s files ascending', () => {
    const postings = buildPostings([
      terms([
        [7, 2],
        [-3, 1],
      ]),
      terms([]),
      terms([
        [-3, 4],
        [0x7fffffff, 1],
        [-0x80000000, 5],
      ]),
    ]);
    expect(postings).toEqual({
      hashes: Int32Array.from([-0x80000000, -3, 7, 0x7fffffff]),
      offsets: Int32Array.from([0, 1, 3, 4, 5]),
      files: Int32Array.from([2, 0, 2, 0, 2]),
      counts: Int32Array.from([5, 1, 4, 2, 1]),
      fileTotals: Int32Array.from([3, 0, 10]),
    });
  });

  test('the same as their definition on random files whose hashes share every 16-bit half', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Hashes from few high and low halves, so both radix passes meet ties.
    const halves = [0, 1, 0x7fff, 0x8000, 0xffff];
    const hashOf = () => (halves[Math.floor(random() * 5)]! << 16) | halves[Math.floor(random() * 5)]! | 0;
    const perFile = Array.from({ length: 200 }, () => {
      const distinct = new Map<number, number>();
      for (let i = Math.floor(random() * 12); i > 0; i--) distinct.set(hashOf(), 1 + Math.floor(random() * 9));
      return terms([...distinct]);
    });
    expect(buildPostings(perFile)).toEqual(reference(perFile));
  });
});
