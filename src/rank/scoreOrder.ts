/**
 * Indices of `scores` (those `keep` accepts) by score, highest first, ties by index ascending.
 * Grouped by value and the distinct values sorted natively: a sort with a comparator function
 * ran 5–10 times slower in a process still cold, where every map runs.
 */
export function orderByScore(scores: Float64Array, keep: (index: number) => boolean = () => true): Int32Array {
  const byScore = new Map<number, number[]>();
  let count = 0;
  for (let index = 0; index < scores.length; index++) {
    if (!keep(index)) continue;
    const score = scores[index]!;
    const indices = byScore.get(score);
    if (indices) indices.push(index);
    else byScore.set(score, [index]);
    count++;
  }
  const distinct = Float64Array.from(byScore.keys()).sort();
  const order = new Int32Array(count);
  let at = 0;
  for (let d = distinct.length - 1; d >= 0; d--) for (const index of byScore.get(distinct[d]!)!) order[at++] = index;
  return order;
}

/** `order` regrouped by `groupOf` (groups ascending), keeping its order within each group: a counting sort. */
export function groupInOrder(order: Int32Array, groupOf: Int32Array, groupCount: number): Int32Array {
  const starts = new Int32Array(groupCount + 1);
  for (const index of order) starts[groupOf[index]! + 1]!++;
  for (let group = 0; group < groupCount; group++) starts[group + 1]! += starts[group]!;
  const grouped = new Int32Array(order.length);
  for (const index of order) grouped[starts[groupOf[index]!]!++] = index;
  return grouped;
}
