import { expect, test } from 'vitest';
import { groupInOrder, orderByScore } from '../../dist/src/rank/scoreOrder.js';

test('indices by score, highest first, ties by index ascending; those kept only', () => {
  const scores = Float64Array.from([0.5, 2, 0, 2, 0.5, 1e-300]);
  expect(Array.from(orderByScore(scores))).toEqual([1, 3, 0, 4, 5, 2]);
  expect(Array.from(orderByScore(scores, (index) => index !== 3 && index !== 2))).toEqual([1, 0, 4, 5]);
  expect(Array.from(orderByScore(new Float64Array(0)))).toEqual([]);
});

test('with a limit, the first indices of the whole order, ties at the cut by index', () => {
  const scores = Float64Array.from([0.5, 2, 0, 2, 0.5, 1e-300, 0.5]);
  expect(Array.from(orderByScore(scores))).toEqual([1, 3, 0, 4, 6, 5, 2]);
  expect(Array.from(orderByScore(scores, undefined, 4))).toEqual([1, 3, 0, 4]);
  expect(Array.from(orderByScore(scores, (index) => index !== 0, 3))).toEqual([1, 3, 4]);
  expect(Array.from(orderByScore(scores, undefined, 99))).toEqual([1, 3, 0, 4, 6, 5, 2]);
});

test('regrouped by group ascending, the order kept within each group', () => {
  const groupOf = Int32Array.from([2, 0, 2, 1, 0]);
  expect(Array.from(groupInOrder(Int32Array.from([4, 2, 0, 1, 3]), groupOf, 3))).toEqual([4, 1, 3, 2, 0]);
});
