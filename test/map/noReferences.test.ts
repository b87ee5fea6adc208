import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { cliTags } from '../support/cli.js';
import { AIDER_STYLE, copyFixture, filePaths, lines, mapWithin, rankingOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * A repo in which no file references anything: TypeScript design tokens, only exported
 * constants and interfaces of primitive fields (no call, no import, no type name in use; a
 * Python dataclass would not do, as its decorator and annotations are references). Every file
 * then takes aider's fallback: its identifiers count as its references, so every definition is
 * referenced by its definer, once per occurrence, and nothing else links files.
 *
 * rankDefinitions' own rule for a repo with no reference at all (every definition referenced
 * once by its definers) never acts through the CLI: any file that defines something has at
 * least its definitions' names as fallback references. Here it would rank alike, but for
 * SPACING_UNIT's √2.
 */
const root = copyFixture('noReferences');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

describe('a repo with no references', () => {
  test("every reference is a fallback identifier (line -1), every definition its own file's", async () => {
    const tags = await cliTags(root);
    const references = tags.filter((tag) => tag.includes(' ref '));
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference).toMatch(/^src\/[a-z]+\.ts:-1 ref identifier \w+$/);
    for (const definition of tags.filter((tag) => tag.includes(' def '))) {
      const [, path, name] = /^([^:]+):\d+ def \w+ (\w+)$/.exec(definition)!;
      expect(references).toContain(`${path}:-1 ref identifier ${name}`);
    }
    // SPACING_UNIT occurs twice in spacing.ts (GUTTER is defined from it).
    expect(references.filter((tag) => tag === 'src/spacing.ts:-1 ref identifier SPACING_UNIT')).toHaveLength(2);
  });

  test('each file keeps its rank and spreads it over its definitions by weight', async () => {
    const ranked = await rankingOf(root);
    // Four islands with self-loops only: nothing flows between them, so each keeps its teleport
    // share, 1/4, to the last bits the order of its sums leaves (so their order is not asserted).
    expect(filePaths(ranked).sort()).toEqual(['src/breakpoints.ts', 'src/colors.ts', 'src/spacing.ts', 'src/types.ts']);
    for (const file of ranked.files) expect(file.rank).toBeCloseTo(0.25, 12);
    // A definition's score is 1/4 × its weight / its file's total. Field names (label,
    // minWidth, …) are references too, but name no definition, so they add no edge.
    //   breakpoints.ts  BREAKPOINTS 1 (all capitals, no `_`: not a long structured name) → 1/4
    //   spacing.ts      SPACING_UNIT 10√2 (long snake, 2 occurrences), GUTTER 1 → 0.2335, 0.0165
    //   colors.ts       PRIMARY_HOVER 10, PRIMARY 1, DANGER 1 → 0.2083, 0.0208, 0.0208
    //   types.ts        ThemeColors 10, Breakpoint 10 (long camel) → 0.125 each
    // Ties keep path then name, descending.
    expect(topDefinitions(ranked)).toEqual([
      'src/breakpoints.ts BREAKPOINTS',
      'src/spacing.ts SPACING_UNIT',
      'src/colors.ts PRIMARY_HOVER',
      'src/types.ts ThemeColors',
      'src/types.ts Breakpoint',
      'src/colors.ts PRIMARY',
      'src/colors.ts DANGER',
      'src/spacing.ts GUTTER',
    ]);
    const quarter = 0.25;
    expect(scoreOf(ranked, 'src/breakpoints.ts', 'BREAKPOINTS')).toBeCloseTo(quarter, 12);
    expect(scoreOf(ranked, 'src/spacing.ts', 'SPACING_UNIT')).toBeCloseTo((quarter * 10 * Math.SQRT2) / (10 * Math.SQRT2 + 1), 12);
    expect(scoreOf(ranked, 'src/spacing.ts', 'GUTTER')).toBeCloseTo(quarter / (10 * Math.SQRT2 + 1), 12);
    expect(scoreOf(ranked, 'src/colors.ts', 'PRIMARY_HOVER')).toBeCloseTo((quarter * 10) / 12, 12);
    expect(scoreOf(ranked, 'src/colors.ts', 'DANGER')).toBeCloseTo(quarter / 12, 12);
    expect(scoreOf(ranked, 'src/types.ts', 'ThemeColors')).toBeCloseTo(quarter / 2, 12);
  });

  test('the maps at 64 and 128 tokens', async () => {
    const breakpoints = [
      '',
      'src/breakpoints.ts:',
      '⋮',
      '│export const BREAKPOINTS = [',
      "│  { label: 'phone', minWidth: 0 },",
      "│  { label: 'tablet', minWidth: 768 },",
      "│  { label: 'desktop', minWidth: 1200 },",
      '⋮',
    ];
    expect((await mapWithin(encoding, root, 64, AIDER_STYLE)).text).toBe(lines(...breakpoints));
    // Then SPACING_UNIT and PRIMARY_HOVER; ThemeColors would take it to 145 tokens.
    expect((await mapWithin(encoding, root, 128, AIDER_STYLE)).text).toBe(
      lines(
        ...breakpoints,
        '',
        'src/colors.ts:',
        '⋮',
        "│export const PRIMARY_HOVER = '#388bfd';",
        '⋮',
        '',
        'src/spacing.ts:',
        '⋮',
        '│export const SPACING_UNIT = 4;',
        '⋮',
      ),
    );
  });
});
