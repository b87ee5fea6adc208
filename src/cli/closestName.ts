/**
 * The candidate `given` was most likely a typo of, or undefined when none is close: within one
 * edit for short names, a third of the name's length for longer ones (a swap of two neighbours
 * is one edit, so `mpa` is close to `map`).
 */
export function closestName(given: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(given.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(given, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Up to `count` candidates within closestName's distance of `given`, nearest first (then by
 * name), each once: what a "nothing found" line offers instead.
 */
export function closestNames(given: string, candidates: Iterable<string>, count: number): string[] {
  const limit = Math.max(1, Math.floor(given.length / 3));
  const near = new Map<string, number>();
  for (const candidate of candidates) {
    // A length difference alone costs that many edits: most candidates need no table.
    if (Math.abs(candidate.length - given.length) > limit || near.has(candidate)) continue;
    const distance = editDistance(given, candidate);
    if (distance <= limit) near.set(candidate, distance);
  }
  return [...near]
    .sort(([a, da], [b, db]) => da - db || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, count)
    .map(([name]) => name);
}

/** Insertions, deletions, substitutions and swaps of neighbours (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}
