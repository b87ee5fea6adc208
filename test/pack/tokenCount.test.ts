import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { RenderedTokenCounter } from '../../dist/src/pack/tokenCount.js';
import { AIDER_EXPECTED } from '../support/aiderReference.js';

/** A map's count as the sum of its lines' counts equals a full cl100k_base encode. */

const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());
const fullCount = (text: string) => encoding.encode(text).length;

describe("line-by-line counts of aider's renderings", () => {
  const renderings = readdirSync(AIDER_EXPECTED).flatMap((scenario) => [
    join(scenario, 'map.txt'),
    ...readdirSync(join(AIDER_EXPECTED, scenario, 'prefix')).map((file) => join(scenario, 'prefix', file)),
  ]);

  test.each(renderings)('%s', (rendering) => {
    const text = readFileSync(join(AIDER_EXPECTED, rendering), 'utf8');
    expect(new RenderedTokenCounter(fullCount).count(text)).toBe(fullCount(text));
  });

  test("aider's own count of the none-1024 map", () => {
    const text = readFileSync(join(AIDER_EXPECTED, 'none-1024', 'map.txt'), 'utf8');
    const stated = /(\d+) cl100k tokens/.exec(readFileSync(join(AIDER_EXPECTED, 'none-1024', 'map-tokens.txt'), 'utf8'))![1];
    expect(new RenderedTokenCounter(fullCount).count(text)).toBe(Number(stated));
  });
});
