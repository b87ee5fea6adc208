import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, filePaths, mapWithin, rankingOf, rankOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * Mentioned identifiers (`-i`) and a mentioned file (`-m`) on a Python weather station.
 *
 * The graph, referencer → definer, weight = multipliers × √(reference count):
 *   sensors.py → itself   Reading √2 (annotation + call)                            out √2
 *   storage.py → sensors  Reading √4; → itself LOG_PATH 0.1 (only an argument)       out 2.1
 *   alerts.py → sensors   Reading √2; → storage load_readings 10√2 (long snake);
 *               → itself  FROST_CELSIUS 0.1                                           out 11√2 + 0.1
 *   report.py → sensors   Reading √2; → storage load_readings 10√2; → itself average √2  out 12√2
 *   main.py → read_sensor, save_reading, frost_warning, daily_report: 10√2 each (import + call);
 *             → itself run 1                                                            out 40√2 + 1
 */
const root = copyFixture('mentions');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

/** The ranking with no option, the baseline every option is compared with. */
const BASELINE = [
  'station/sensors.py Reading',
  'station/storage.py load_readings',
  'station/storage.py save_reading',
  'station/sensors.py read_sensor',
  'station/report.py daily_report',
  'station/alerts.py frost_warning',
  'station/storage.py LOG_PATH',
  'station/report.py average',
  'station/main.py run',
  'station/alerts.py FROST_CELSIUS',
];

describe('mentions', () => {
  test('the baseline', async () => {
    const ranked = await rankingOf(root);
    // Reading: sensors.py keeps all its rank in it (its only out-edge), plus 2/2.1 of storage's,
    // 1/12 of report's, √2/(11√2 + 0.1) of alerts'. load_readings: 10/12 of report's and about
    // 10/11 of alerts'. main.py's four long names get 10√2/(40√2 + 1) of its rank each: a tie,
    // broken by path descending. Then LOG_PATH 0.1/2.1 of storage (0.0046), average 1/12 of
    // report (0.0033), run 1/57.6 of main, FROST_CELSIUS 0.1/15.7 of alerts.
    expect(topDefinitions(ranked)).toEqual(BASELINE);
    expect(scoreOf(ranked, 'station/report.py', 'average')).toBeCloseTo(rankOf(ranked, 'station/report.py') / 12, 12);
  });

  test('-i IDENT: the links of a mentioned identifier weigh ×10', async () => {
    const ranked = await rankingOf(root, ['-i', 'average']);
    // report.py's self-edge for average goes from √2 to 10√2: average's share of report.py's
    // rank from 1/12 to 10/21 (and report.py's rank grows, as more of it stays home). It
    // climbs from eighth to third, past main.py's four long names (0.0075 each).
    expect(topDefinitions(ranked, 4)).toEqual([
      'station/sensors.py Reading',
      'station/storage.py load_readings',
      'station/report.py average',
      'station/storage.py save_reading',
    ]);
    expect(scoreOf(ranked, 'station/report.py', 'average')).toBeCloseTo((rankOf(ranked, 'station/report.py') * 10) / 21, 12);
    // No file is named average, so the personalization stays uniform; main.py, which no other
    // file references, keeps its rank, and so do its four long names.
    expect(scoreOf(ranked, 'station/alerts.py', 'frost_warning')).toBeCloseTo(scoreOf(await rankingOf(root), 'station/alerts.py', 'frost_warning'), 12);
  });

  test('-m FILE: the teleport lands on the mentioned file only', async () => {
    const ranked = await rankingOf(root, ['-m', join(root, 'station/report.py')]);
    // Only report.py is personalized. main.py is referenced by no other file, alerts.py only by
    // main.py: with no teleport their rank decays to 0, and so do the scores of the four
    // definitions only main.py references. What report.py references leads: Reading, load_readings (10√2/12√2 of
    // report.py's rank), average (√2/12√2: exactly a tenth of that), and LOG_PATH through
    // storage.py's rank.
    expect(filePaths(ranked).slice(0, 3)).toEqual(['station/sensors.py', 'station/report.py', 'station/storage.py']);
    expect(topDefinitions(ranked, 4)).toEqual([
      'station/sensors.py Reading',
      'station/storage.py load_readings',
      'station/report.py average',
      'station/storage.py LOG_PATH',
    ]);
    expect(scoreOf(ranked, 'station/report.py', 'average')).toBeCloseTo(scoreOf(ranked, 'station/storage.py', 'load_readings') / 10, 9);
    for (const [path, name] of [
      ['station/storage.py', 'save_reading'],
      ['station/sensors.py', 'read_sensor'],
      ['station/report.py', 'daily_report'],
      ['station/alerts.py', 'frost_warning'],
    ] as const) {
      expect(scoreOf(ranked, path, name)).toBeLessThan(1e-9);
    }
  });

  test('-i NAME personalizes the files it names, as -m would', async () => {
    // "alerts" names no identifier, only station/alerts.py (its basename without extension):
    // 100/N on that file, nothing else, so the very same ranking as -m station/alerts.py.
    const byName = await rankingOf(root, ['-i', 'alerts']);
    const byFile = await rankingOf(root, ['-m', join(root, 'station/alerts.py')]);
    expect(byName).toEqual(byFile);
    // alerts.py sends its rank to Reading and load_readings; LOG_PATH (0.1/2.1 of storage.py)
    // and FROST_CELSIUS (0.1/15.7 of alerts.py) follow; what only main.py references is ≈ 0.
    expect(topDefinitions(byName, 4)).toEqual([
      'station/sensors.py Reading',
      'station/storage.py load_readings',
      'station/storage.py LOG_PATH',
      'station/alerts.py FROST_CELSIUS',
    ]);
    // "station" names the folder of every file: each gets 100/N, which is the uniform
    // personalization of no option at all.
    expect(await rankingOf(root, ['-i', 'station'])).toEqual(await rankingOf(root));
  });

  test('the maps at 128 tokens, within budget', async () => {
    const plain = await mapWithin(encoding, root, 128, AIDER_STYLE);
    expect(plain.text).toContain('│def frost_warning(latest: Reading) -> str | None:');
    expect(plain.text).not.toContain('def average');
    const mentioned = await mapWithin(encoding, root, 128, [...AIDER_STYLE, '-i', 'average']);
    // average takes third place, and frost_warning (now seventh) no longer fits.
    expect(mentioned.text).toContain('│def average(values: list[float]) -> float:');
    expect(mentioned.text).not.toContain('frost_warning');
    const byFile = await mapWithin(encoding, root, 128, [...AIDER_STYLE, '-m', join(root, 'station/report.py')]);
    expect(byFile.text).toContain('│def average(values: list[float]) -> float:');
    expect(byFile.text).toContain('│LOG_PATH = "readings.csv"');
  });
});
