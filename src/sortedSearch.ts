/** The first index of sorted[from .. to) (ascending) whose value is not below `value`; `to` when none is. */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of `value` in `sorted` (ascending by `<`, as discovery lists paths), or -1. */
export function sortedIndexOf(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === value ? low : -1;
}
