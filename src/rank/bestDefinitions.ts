/**
 * The best `limit` definitions of the task ranking without scoring and sorting all of them: a
 * definition scores its file's score × its worth × decay^(its place among its file's
 * definitions by worth), so along each file's definitions by worth the scores fall, and the best
 * definitions overall are a merge of the files' sequences, each taken only as far as the merge
 * reaches (a heap of files by their next definition's score). In a process still cold, where
 * every map runs, this costs a fraction of ordering every definition (see orderByScore).
 */

export interface BestDefinitions {
  /** Definer slots by score, highest first, ties by slot ascending: the whole ranking's first `limit`. */
  slots: Int32Array;
  /** Per slot; set for `slots` only. */
  scores: Float64Array;
}

/**
 * `worth` per slot (positive), `fileScores` per file; `keepFile` says which files take part.
 * Null when the merge reaches a score of 0 (or one so small the decay no longer lowers it): then
 * ties decide the order, which only the whole ranking's sort keeps.
 */
export function bestDefinitions(
  definerFiles: Int32Array,
  worth: Float64Array,
  fileScores: Float64Array,
  keepFile: (file: number) => boolean,
  decay: number,
  limit: number,
): BestDefinitions | null {
  const fileCount = fileScores.length;
  const slotCount = definerFiles.length;
  // Each file's slot count and first definition by worth (ties: the lowest slot), in one pass in slot order.
  const starts = new Int32Array(fileCount + 1);
  const next = new Int32Array(fileCount).fill(-1);
  const bestWorth = new Float64Array(fileCount);
  for (let slot = 0; slot < slotCount; slot++) {
    const file = definerFiles[slot]!;
    starts[file + 1]!++;
    if (next[file]! < 0 || worth[slot]! > bestWorth[file]!) {
      next[file] = slot;
      bestWorth[file] = worth[slot]!;
    }
  }
  for (let file = 0; file < fileCount; file++) starts[file + 1]! += starts[file]!;
  // Each file's slots in slot order (a counting sort), made when the merge first takes a second definition of a file.
  let grouped: Int32Array | null = null;
  const groupedSlots = (): Int32Array => {
    if (grouped) return grouped;
    grouped = new Int32Array(slotCount);
    const filled = starts.slice(0, fileCount);
    for (let slot = 0; slot < slotCount; slot++) grouped[filled[definerFiles[slot]!]!++] = slot;
    return grouped;
  };

  const place = new Int32Array(fileCount);
  const nextScore = new Float64Array(fileCount);
  const heap = new Int32Array(fileCount);
  let heapSize = 0;
  /** Whether file a's next definition comes before file b's. */
  const before = (a: number, b: number) => nextScore[a]! > nextScore[b]! || (nextScore[a] === nextScore[b] && next[a]! < next[b]!);
  const siftDown = (from: number, file: number) => {
    let at = from;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heapSize) break;
      if (child + 1 < heapSize && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, file)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = file;
  };
  const push = (file: number) => {
    let at = heapSize++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(file, heap[parent]!)) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = file;
  };
  const popTop = () => siftDown(0, heap[--heapSize]!);

  // The files that take part, made a heap in linear time.
  for (let file = 0; file < fileCount; file++) {
    if (next[file]! < 0 || !keepFile(file)) continue;
    nextScore[file] = fileScores[file]! * bestWorth[file]!;
    heap[heapSize++] = file;
  }
  for (let at = (heapSize >> 1) - 1; at >= 0; at--) siftDown(at, heap[at]!);
  const slots = new Int32Array(Math.min(limit, slotCount));
  const scores = new Float64Array(slotCount);
  let count = 0;
  while (count < slots.length && heapSize > 0) {
    const file = heap[0]!;
    const slot = next[file]!;
    const score = nextScore[file]!;
    // Below the smallest normal double, a decayed score may equal the one before it.
    if (!(score >= Number.MIN_VALUE * 2 ** 52)) return null;
    slots[count++] = slot;
    scores[slot] = score;
    popTop();
    const taken = ++place[file]!;
    const end = starts[file + 1]!;
    if (starts[file]! + taken >= end) continue;
    const slotsOfFiles = groupedSlots();
    // A file's slots sorted by worth once the merge takes its second definition.
    if (taken === 1) slotsOfFiles.subarray(starts[file]!, end).sort((a, b) => worth[b]! - worth[a]! || a - b);
    next[file] = slotsOfFiles[starts[file]! + taken]!;
    nextScore[file] = fileScores[file]! * worth[next[file]!]! * decay ** taken;
    push(file);
  }
  if (count < slots.length) return null;
  return { slots, scores };
}
