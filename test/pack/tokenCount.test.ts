import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { RenderedTokenCounter } from '../../dist/src/pack/tokenCount.js';

/** A map's count as the sum of its lines' counts equals a full cl100k_base encode. */
const EXPECTED = fileURLToPath(new URL('../../../shared/reference/aider/expected', import.meta.url));
const haveReference = existsSync(EXPECTED);
if (!haveReference) console.warn(`token-count check on aider's renderings skipped: ${EXPECTED} is missing`);

const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());
const fullCount = (text: string) => encoding.encode(text).length;

describe.skipIf(!haveReference)("line-by-line counts of aider's renderings", () => {
  const renderings = haveReference
    ? readdirSync(EXPECTED).flatMap((scenario) => [
        join(scenario, 'map.txt'),
        ...readdirSync(join(EXPECTED, scenario, 'prefix')).map((file) => join(scenario, 'prefix', file)),
      ])
    : [];

  test.each(renderings)('%s', (rendering) => {
    const text = readFileSync(join(EXPECTED, rendering), 'utf8');
    expect(new RenderedTokenCounter(fullCount).count(text)).toBe(fullCount(text));
  });

  test("aider's own count of the none-1024 map", () => {
    const text = readFileSync(join(EXPECTED, 'none-1024', 'map.txt'), 'utf8');
    const stated = /(\d+) cl100k tokens/.exec(readFileSync(join(EXPECTED, 'none-1024', 'map-tokens.txt'), 'utf8'))![1];
    expect(new RenderedTokenCounter(fullCount).count(text)).toBe(Number(stated));
  });
});
