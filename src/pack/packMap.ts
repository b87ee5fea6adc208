/**
 * The largest prefix of the ranked list whose rendering fits the budget, by binary search over
 * the number of entries as aider does (starting at budget / 25 entries, done once a rendering
 * is within 15% below the budget), except that the budget is a hard limit: aider accepts a map
 * up to 15% over it (aider #752, #863); we never do.
 */
const TOKENS_PER_ENTRY_GUESS = 25;
const GOOD_ENOUGH = 0.15;

export interface PackedMap {
  text: string;
  tokens: number;
  /** How many ranked entries the map holds. */
  entries: number;
}

export function packMap(
  entryCount: number,
  render: (entries: number) => string,
  countTokens: (rendering: string) => number,
  budget: number,
): PackedMap {
  let best: PackedMap = { text: '', tokens: 0, entries: 0 };
  let lower = 0;
  let upper = entryCount;
  let middle = Math.min(Math.floor(budget / TOKENS_PER_ENTRY_GUESS), entryCount);
  while (lower <= upper) {
    const text = render(middle);
    const tokens = countTokens(text);
    if (tokens <= budget && tokens > best.tokens) {
      best = { text, tokens, entries: middle };
      if ((budget - tokens) / budget < GOOD_ENOUGH) break;
    }
    if (tokens < budget) lower = middle + 1;
    else upper = middle - 1;
    middle = Math.floor((lower + upper) / 2);
  }
  return best;
}
