import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { RenderedTokenCounter } from '../../dist/src/pack/tokenCount.js';
import { AIDER_EXPECTED } from '../support/aiderReference.js';
import { runCli } from '../support/cli.js';

/** A map's count as the sum of its lines' counts equals a full cl100k_base encode. */

const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());
const fullCount = (text: string) => encoding.encode_ordinary(text).length;

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

test("a shown line holding a special token's text is counted as ordinary text, as a model's API counts it: map and outline show it", async () => {
  const root = mkdtempSync(join(tmpdir(), 'repomap-special-token-'));
  writeFileSync(join(root, 'prompts.py'), 'def stop(marker="<|endoftext|>"):\n    return marker\n');
  const cache = join(root, '..', `${basename(root)}-store`);
  const map = await runCli(['map', root, '--cache-dir', cache]);
  expect(map).toMatchObject({ code: 0, stderr: '', stdout: '\nprompts.py:\n│def stop(marker="<|endoftext|>"):\n⋮\n' });
  const outline = await runCli(['outline', '--root', root, '--cache-dir', cache, '--max-tokens', '100']);
  expect(outline).toMatchObject({ code: 0, stderr: '' });
  expect(outline.stdout).toContain('def stop(marker="<|endoftext|>")');
});
