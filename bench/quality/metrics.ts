/** The measures of a ranking and a map against the files a task needed. */

/** Each gold file's 1-based place in the ranking, null when it is not ranked. */
export function goldRanks(ranking: readonly string[], gold: readonly string[]): (number | null)[] {
  const places = new Map<string, number>();
  ranking.forEach((path, i) => {
    if (!places.has(path)) places.set(path, i + 1);
  });
  return gold.map((path) => places.get(path) ?? null);
}

/** Strict Acc@k: every gold file in the top k. */
export function allInTop(ranks: readonly (number | null)[], k: number): boolean {
  return ranks.length > 0 && ranks.every((rank) => rank !== null && rank <= k);
}

/** 1 / the place of the best-placed gold file; 0 when none is ranked. */
export function reciprocalRank(ranks: readonly (number | null)[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const rank of ranks) if (rank !== null && rank < best) best = rank;
  return best === Number.POSITIVE_INFINITY ? 0 : 1 / best;
}

/** The share of `wanted` in `named`; null when nothing is wanted. */
export function shareNamed(wanted: readonly string[], named: ReadonlySet<string>): number | null {
  if (wanted.length === 0) return null;
  return wanted.filter((item) => named.has(item)).length / wanted.length;
}

/** The mean of the values that are not null; null when none is. */
export function meanOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}
