/**
 * A prefix of the ranked list whose rendering fits the budget, by binary search over the number
 * of entries as aider does: starting at budget / 25 entries, done as soon as a rendering is within
 * 15% below the budget, else the largest prefix that fits. Unlike aider, the budget is a hard
 * limit: aider accepts a map up to 15% over it (aider #752, #863); we never do.
 *
 * `render(0)` is what every map must hold (anchors): when it alone exceeds the budget, nothing
 * fits and the result is empty. When a rendering cannot be counted yet (its tokens are
 * undefined: see CountLine), the search stops and the result says so.
 */
const TOKENS_PER_ENTRY_GUESS = 25;
const GOOD_ENOUGH = 0.15;

export interface PackedMap {
  /** Empty when nothing fits. */
  text: string;
  /** The text's tokens; when nothing fits, those of what every map must hold. */
  tokens: number;
  /** How many ranked entries the map holds. */
  entries: number;
  /** A rendering held a line that could not be counted: the search stopped there, and the rest is empty. */
  uncounted: boolean;
}

const UNCOUNTED: PackedMap = { text: '', tokens: 0, entries: 0, uncounted: true };

/** A rendering and its tokens (undefined when a line cannot be counted yet). */
export interface Rendering {
  text: string;
  tokens: number | undefined;
}

/**
 * `gallop`: before the binary search, double the guess until a rendering exceeds the budget, so
 * that no probe renders far more than the map (aider's search halves the whole list first: its
 * second probe renders half of every definition of the repository). aider's search otherwise.
 */
export function packMap(entryCount: number, render: (entries: number) => Rendering, budget: number, gallop = false): PackedMap {
  const { text: base, tokens: baseTokens } = render(0);
  if (baseTokens === undefined) return UNCOUNTED;
  if (baseTokens > budget) return { text: '', tokens: baseTokens, entries: 0, uncounted: false };
  let best: PackedMap = { text: base, tokens: baseTokens, entries: 0, uncounted: false };
  let lower = 0;
  let upper = entryCount;
  let middle = Math.min(Math.floor(budget / TOKENS_PER_ENTRY_GUESS), entryCount);
  /** Renders `count` entries, keeps it when it is the best so far; true when the search is done. */
  const probe = (count: number): { tokens: number; done: boolean } | null => {
    const { text, tokens } = render(count);
    if (tokens === undefined) return null;
    // More entries at the same count (repeats of what is shown) describe the map better.
    if (tokens <= budget && (tokens > best.tokens || (tokens === best.tokens && count > best.entries))) {
      best = { text, tokens, entries: count, uncounted: false };
      if ((budget - tokens) / budget < GOOD_ENOUGH) return { tokens, done: true };
    }
    return { tokens, done: false };
  };
  if (gallop) {
    for (let count = Math.max(middle, 1); count <= entryCount; count = Math.min(count * 2, entryCount)) {
      const result = probe(count);
      if (!result) return UNCOUNTED;
      if (result.done) return best;
      if (result.tokens >= budget) {
        upper = count - 1;
        break;
      }
      lower = count + 1;
      if (count === entryCount) return best;
    }
    middle = Math.floor((lower + upper) / 2);
  }
  while (lower <= upper) {
    const result = probe(middle);
    if (!result) return UNCOUNTED;
    if (result.done) break;
    if (result.tokens < budget) lower = middle + 1;
    else upper = middle - 1;
    middle = Math.floor((lower + upper) / 2);
  }
  return best;
}
