/**
 * Indices of `scores` (those `keep` accepts) by score, highest first, ties by index ascending;
 * only the first `limit` of that order when a limit is given. The scores are sorted natively and
 * each index placed by binary search: a sort with a comparator function, or grouping by value in
 * a Map, ran several times slower in a process still cold, where every map runs. With a limit,
 * only the indices scoring at least the limit-th best score are searched for.
 */
export function orderByScore(scores: Float64Array, keep: (index: number) => boolean = () => true, limit = Number.POSITIVE_INFINITY): Int32Array {
  const kept = new Int32Array(scores.length);
  let count = 0;
  for (let index = 0; index < scores.length; index++) if (keep(index)) kept[count++] = index;
  const sorted = new Float64Array(count);
  for (let k = 0; k < count; k++) sorted[k] = scores[kept[k]!]!;
  sorted.sort();
  const size = Math.min(count, limit);
  const threshold = size < count ? sorted[count - size]! : Number.NEGATIVE_INFINITY;
  // An index's place: after every higher score, and after the lower indices of its own score.
  const order = new Int32Array(size);
  const placed = new Int32Array(count + 1);
  for (let k = 0; k < count; k++) {
    const index = kept[k]!;
    const score = scores[index]!;
    if (score < threshold) continue;
    const start = count - upperBound(sorted, score);
    const place = start + placed[start]!++;
    if (place < size) order[place] = index;
  }
  return order;
}

/** The number of values of ascending `sorted` that are at most `value`. */
function upperBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
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
