import { expect, test } from 'vitest';
import { seededRandom } from '../../dist/bench/seededRandom.js';
import { bestDefinitions } from '../../dist/src/rank/bestDefinitions.js';

const DECAY = 0.8;

/** The whole ranking, written plainly: every slot scored by its place in its file by worth, all sorted. */
function wholeRanking(
  definerFiles: Int32Array,
  worth: Float64Array,
  fileScores: Float64Array,
  keepFile: (file: number) => boolean,
): { slot: number; score: number }[] {
  const slots = [...definerFiles.keys()];
  const byWorth = [...slots].sort((a, b) => worth[b]! - worth[a]! || a - b);
  const placed = new Map<number, number>();
  const scores = new Map<number, number>();
  for (const slot of byWorth) {
    const file = definerFiles[slot]!;
    const place = placed.get(file) ?? 0;
    placed.set(file, place + 1);
    scores.set(slot, fileScores[file]! * worth[slot]! * DECAY ** place);
  }
  return slots
    .filter((slot) => keepFile(definerFiles[slot]!))
    .map((slot) => ({ slot, score: scores.get(slot)! }))
    .sort((a, b) => b.score - a.score || a.slot - b.slot);
}

test('the first definitions of the whole ranking, with their scores, ties by slot', () => {
  const random = seededRandom(11);
  for (let round = 0; round < 200; round++) {
    const fileCount = 1 + Math.floor(random() * 30);
    const slotCount = 1 + Math.floor(random() * 300);
    const definerFiles = Int32Array.from({ length: slotCount }, () => Math.floor(random() * fileCount));
    // Few distinct values, so that worths and scores tie.
    const worth = Float64Array.from({ length: slotCount }, () => [0.5, 1, 2][Math.floor(random() * 3)]! * (random() < 0.5 ? 1 : 0.25 + random()));
    const fileScores = Float64Array.from({ length: fileCount }, () => (random() < 0.3 ? 1 : 0.1 + random()));
    const keepFile = (file: number) => file % 7 !== 3;
    const limit = 1 + Math.floor(random() * slotCount);
    const whole = wholeRanking(definerFiles, worth, fileScores, keepFile);
    const best = bestDefinitions(definerFiles, worth, fileScores, keepFile, DECAY, limit);
    if (whole.length < limit) {
      expect(best).toBeNull();
      continue;
    }
    expect(best).not.toBeNull();
    expect(Array.from(best!.slots)).toEqual(whole.slice(0, limit).map(({ slot }) => slot));
    expect(Array.from(best!.slots, (slot) => best!.scores[slot])).toEqual(whole.slice(0, limit).map(({ score }) => score));
  }
});

test('a merge that reaches a score of 0 leaves the order to the whole ranking', () => {
  const definerFiles = Int32Array.from([0, 0, 1, 1]);
  const worth = Float64Array.from([1, 2, 1, 2]);
  expect(bestDefinitions(definerFiles, worth, Float64Array.from([1, 0]), () => true, DECAY, 2)).not.toBeNull();
  expect(bestDefinitions(definerFiles, worth, Float64Array.from([1, 0]), () => true, DECAY, 3)).toBeNull();
  expect(Array.from(bestDefinitions(definerFiles, worth, Float64Array.from([1, 1]), () => true, DECAY, 3)!.slots)).toEqual([1, 3, 0]);
});
