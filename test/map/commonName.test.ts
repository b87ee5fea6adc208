import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, filesOf, lines, mapWithin, rankingOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * A name defined in more than five files weighs ×0.1: a Python sales report whose seven
 * exporters (csv_export.py and six others) each define `render`, which report.py calls once
 * through its EXPORTERS table. report.py also calls `export` and `ordered` once each: names as
 * short and as often referenced as `render`, but defined once.
 *
 * report.py's out-edges: ordered 1, export 1 (both its own), EXPORTERS 0.1 (referenced
 * nowhere), and render 0.1 to each of the seven exporters (1 × √1 × 0.1): out 2.8. The
 * exporters call only the standard library: dangling nodes.
 */
const root = copyFixture('commonName');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

const EXPORTERS = ['xml_export', 'tsv_export', 'markdown_export', 'jsonl_export', 'json_export', 'html_export', 'csv_export'];

describe('a name defined in more than five files', () => {
  test("each of render's seven definitions scores a tenth of export's", async () => {
    const ranked = await rankingOf(root);
    // ordered = export = rank(report.py) × 1/2.8; EXPORTERS and each render = rank(report.py)
    // × 0.1/2.8. Ties: same file by name, descending; across files by path, descending, so
    // report.py's EXPORTERS before the exporters, xml_export.py first.
    expect(topDefinitions(ranked)).toEqual([
      'report.py ordered',
      'report.py export',
      'report.py EXPORTERS',
      ...EXPORTERS.map((exporter) => `exporters/${exporter}.py render`),
    ]);
    const exportScore = scoreOf(ranked, 'report.py', 'export');
    for (const exporter of EXPORTERS) expect(scoreOf(ranked, `exporters/${exporter}.py`, 'render')).toBeCloseTo(exportScore / 10, 12);
    // Even all seven together (7 × 0.1) stay below the one export.
    expect(7 * scoreOf(ranked, 'exporters/csv_export.py', 'render')).toBeLessThan(exportScore);
  });

  test('six definers still weigh ×0.1; five do not', async () => {
    const six = copyFixture('commonName');
    rmSync(join(six, 'exporters/xml_export.py'));
    const sixRanked = await rankingOf(six);
    expect(scoreOf(sixRanked, 'exporters/csv_export.py', 'render')).toBeCloseTo(scoreOf(sixRanked, 'report.py', 'export') / 10, 12);

    const five = copyFixture('commonName');
    rmSync(join(five, 'exporters/xml_export.py'));
    rmSync(join(five, 'exporters/tsv_export.py'));
    const fiveRanked = await rankingOf(five);
    // "More than five" is the rule: with five definers render weighs 1, as export does, and
    // each of its definitions ties with export; EXPORTERS (0.1) falls to the end.
    expect(scoreOf(fiveRanked, 'exporters/csv_export.py', 'render')).toBeCloseTo(scoreOf(fiveRanked, 'report.py', 'export'), 12);
    expect(topDefinitions(fiveRanked)).toEqual([
      'report.py ordered',
      'report.py export',
      ...EXPORTERS.slice(2).map((exporter) => `exporters/${exporter}.py render`),
      'report.py EXPORTERS',
    ]);
  });

  test('the map at 64 tokens holds the names defined once; at 320, every render too', async () => {
    const small = await mapWithin(encoding, root, 64, AIDER_STYLE);
    // EXPORTERS, next, would bring its eight-line table (115 tokens).
    expect(small.text).toBe(
      lines('', 'report.py:', '⋮', '│def ordered(rows: list[dict]) -> list[dict]:', '⋮', '│def export(rows: list[dict], fmt: str) -> str:', '⋮'),
    );
    const whole = await mapWithin(encoding, root, 320, AIDER_STYLE);
    expect(filesOf(whole.text)).toEqual([...EXPORTERS.map((exporter) => `exporters/${exporter}.py`).sort(), 'report.py']);
  });
});
