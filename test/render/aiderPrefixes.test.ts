import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { renderPartOf } from '../../dist/src/record/fileRecord.js';
import { type RenderEntry, renderMap } from '../../dist/src/render/renderMap.js';
import { AIDER_SHOP } from '../support/aiderReference.js';
import { extractFixture } from '../support/fixtureTags.js';

/**
 * aider's renderings of prefixes of its own ranked list on the shop repo, byte for byte, rendered
 * from our stored records (our scope-header lines and line texts, no re-parse).
 */
const EXPECTED = fileURLToPath(new URL('../../../shared/reference/aider/expected', import.meta.url));
const haveReference = existsSync(EXPECTED) && existsSync(AIDER_SHOP);
if (!haveReference) console.warn(`aider rendering cross-check skipped: ${EXPECTED} or ${AIDER_SHOP} is missing`);

const CHAT_FILES: Record<string, string[]> = {
  'chat-service-1024': ['py/shop/service.py'],
  'chat-index-mentionfile-512': ['web/src/index.ts'],
};

interface AiderEntry {
  rel_fname: string;
  line?: number;
}

const scenarios = haveReference ? readdirSync(EXPECTED).sort() : [];
const records = haveReference ? new Map(extractFixture(AIDER_SHOP).map((record) => [record.path, renderPartOf(record)])) : new Map();

describe.skipIf(!haveReference)('aider prefixes rendered from our records', () => {
  const cases = scenarios.flatMap((scenario) =>
    readdirSync(join(EXPECTED, scenario, 'prefix')).map((file) => ({ scenario, k: Number(/to_tree-(\d+)\.txt/.exec(file)![1]) })),
  );

  test.each(cases)('$scenario, first $k entries', ({ scenario, k }) => {
    const ranked = JSON.parse(readFileSync(join(EXPECTED, scenario, 'ranked.json'), 'utf8')) as AiderEntry[];
    // aider's lines are 0-based.
    const entries: RenderEntry[] = ranked.slice(0, k).map((entry) => ({
      path: entry.rel_fname,
      lines: entry.line === undefined ? [] : [entry.line + 1],
    }));
    const rendered = renderMap(entries, (path) => records.get(path), { chatFiles: new Set(CHAT_FILES[scenario] ?? []) });
    expect(rendered).toBe(readFileSync(join(EXPECTED, scenario, 'prefix', `to_tree-${k}.txt`), 'utf8'));
  });
});
