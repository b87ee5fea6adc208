import { createRequire } from 'node:module';

/**
 * cl100k_base token counts of rendered maps, line by line: a rendering's count is 1 for a leading
 * newline plus, for every non-empty line, the count of that line with its newline. Exact where
 * cl100k's pre-tokenizer starts a piece at every line's start and no piece spans two lines:
 * - by construction when every line but a leading empty one holds a non-whitespace character and
 *   no `\r` before its first: a piece holding a newline ends at the last `\r`/`\n` of the
 *   whitespace around it, which is then that line's own newline (src/render/formats.ts);
 * - as measured for aider's format, whose blocks are parted by an empty line: a run of newlines
 *   after `│` or `⋮` lines and paths costs what one does (all 30 of aider's reference
 *   renderings: test/pack).
 * Counting line by line lets a packer reuse every line it has counted once.
 */
export type CountTokens = (text: string) => number;

let cl100k: Promise<CountTokens> | null = null;

/**
 * tiktoken's cl100k_base, loaded on first use and kept for the process: the vocabulary costs
 * about 100 ms, and each load holds WASM memory until freed.
 */
export function loadCl100k(): Promise<CountTokens> {
  // Required, not imported: the bundled CLI runs through node:vm, whose scripts cannot import().
  cl100k ??= Promise.resolve().then(() => {
    const { get_encoding } = createRequire(import.meta.url)('tiktoken') as typeof import('tiktoken');
    const encoding = get_encoding('cl100k_base');
    // Ordinary text, as a model's API counts what it is sent: `encode` throws on a special token's
    // text (a source line holding `<|endoftext|>` failed every map showing it), and costs 5× per call.
    return (text: string) => encoding.encode_ordinary(text).length;
  });
  return cl100k;
}

/** A line's count, or undefined when it cannot be counted yet (no count stored, no tokenizer loaded). */
export type CountLine = (lineWithNewline: string) => number | undefined;

export class RenderedTokenCounter {
  private readonly lineCounts = new Map<string, number>();

  constructor(private readonly countLine: CountLine) {}

  /** Tokens of a rendered map by the rule above; undefined when a line cannot be counted yet. */
  count(rendering: string): number | undefined {
    const leading = rendering.startsWith('\n') ? 1 : 0;
    let total = leading;
    let start = leading;
    for (let end = rendering.indexOf('\n', start); end !== -1; end = rendering.indexOf('\n', start)) {
      if (end > start) {
        const count = this.line(rendering.slice(start, end + 1));
        if (count === undefined) return undefined;
        total += count;
      }
      start = end + 1;
    }
    return total;
  }

  private line(lineWithNewline: string): number | undefined {
    let count = this.lineCounts.get(lineWithNewline);
    if (count === undefined) {
      count = this.countLine(lineWithNewline);
      if (count !== undefined) this.lineCounts.set(lineWithNewline, count);
    }
    return count;
  }
}
