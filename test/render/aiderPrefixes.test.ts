import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderPartOf } from '../../dist/src/record/fileRecord.js';
import { type RenderEntry, renderMap } from '../../dist/src/render/renderMap.js';
import { AIDER_EXPECTED, AIDER_SHOP } from '../support/aiderReference.js';
import { extractFixture } from '../support/fixtureTags.js';

/**
 * aider's renderings of prefixes of its own ranked list on the shop repo, byte for byte, rendered
 * from our stored records (our scope-header lines and line texts, no re-parse).
 */

const CHAT_FILES: Record<string, string[]> = {
  'chat-service-1024': ['py/shop/service.py'],
  'chat-index-mentionfile-512': ['web/src/index.ts'],
};

interface AiderEntry {
  rel_fname: string;
  line?: number;
}

const scenarios = readdirSync(AIDER_EXPECTED).sort();
const records = new Map(extractFixture(AIDER_SHOP).map((record) => [record.path, renderPartOf(record)]));

describe('aider prefixes rendered from our records', () => {
  const cases = scenarios.flatMap((scenario) =>
    readdirSync(join(AIDER_EXPECTED, scenario, 'prefix')).map((file) => ({ scenario, k: Number(/to_tree-(\d+)\.txt/.exec(file)![1]) })),
  );

  test.each(cases)('$scenario, first $k entries', ({ scenario, k }) => {
    const ranked = JSON.parse(readFileSync(join(AIDER_EXPECTED, scenario, 'ranked.json'), 'utf8')) as AiderEntry[];
    // aider's lines are 0-based.
    const entries: RenderEntry[] = ranked.slice(0, k).map((entry) => ({
      path: entry.rel_fname,
      lines: entry.line === undefined ? [] : [entry.line + 1],
    }));
    const rendered = renderMap(entries, (path) => records.get(path), { chatFiles: new Set(CHAT_FILES[scenario] ?? []), style: 'aider' });
    expect(rendered).toBe(readFileSync(join(AIDER_EXPECTED, scenario, 'prefix', `to_tree-${k}.txt`), 'utf8'));
  });
});
