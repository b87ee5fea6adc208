import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, filePaths, filesOf, lines, mapWithin, rankingOf, topDefinitions } from '../support/mapFixture.js';

/**
 * Important files on a link shortener (a Python package under src/, a JavaScript form under
 * web/): README.md and pyproject.toml at the root open the map whatever their rank (they have
 * none: no tags); the package's own `__init__.py` and the form's own `package.json` are on
 * aider's list by name, but not at the root, so they take their ranked place.
 */
const root = copyFixture('importantFiles');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

describe('important files', () => {
  test('the ranking knows nothing of them', async () => {
    const ranked = await rankingOf(root);
    // codes.py's only out-edge is ALPHABET's 0.1 self-edge (ALPHABET is used, never called), so
    // all of codes.py's rank stays in ALPHABET; encode and decode get what store.py and
    // __init__.py send. form.js references nothing of the repo and has only self-edges: it
    // keeps exactly its teleport share, 1/5, split over two 0.1 self-edges. Files without tags
    // are outside the graph: rank 0, last, in path order.
    expect(filePaths(ranked)).toEqual([
      'src/shortener/codes.py',
      'web/src/form.js',
      'src/shortener/store.py',
      'src/shortener/__init__.py',
      'src/shortener/app.py',
      'README.md',
      'pyproject.toml',
      'web/package.json',
    ]);
    expect(ranked.files.find((file) => file.path === 'web/src/form.js')!.rank).toBeCloseTo(0.2, 12);
    // showCode and shortenUrl tie at 0.1 (same file: name descending).
    expect(topDefinitions(ranked, 5)).toEqual([
      'src/shortener/codes.py ALPHABET',
      'web/src/form.js showCode',
      'web/src/form.js shortenUrl',
      'src/shortener/codes.py encode',
      'src/shortener/codes.py decode',
    ]);
  });

  test('the root README.md and pyproject.toml come first, even in a budget too small for anything else', async () => {
    const tiny = await mapWithin(encoding, root, 16, AIDER_STYLE);
    expect(tiny.text).toBe(lines('', 'README.md', '', 'pyproject.toml'));
    const small = await mapWithin(encoding, root, 64, AIDER_STYLE);
    // Then the ranked list: ALPHABET, and showCode would not fit (75 tokens).
    expect(small.text).toBe(
      lines(
        '',
        'README.md',
        '',
        'pyproject.toml',
        '',
        'src/shortener/codes.py:',
        '⋮',
        '│ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"',
        '│',
        '⋮',
      ),
    );
  });

  test('a nested __init__.py or package.json takes its ranked place', async () => {
    // __init__.py's one definition (__all__, a 0.1 self-edge) ranks tenth of the 14; the nested
    // package.json has no tags, so it is the last entry of all: only a map of everything shows it.
    const almost = await mapWithin(encoding, root, 256, AIDER_STYLE);
    expect(filesOf(almost.text)).not.toContain('web/package.json');
    expect(filesOf(almost.text)).not.toContain('src/shortener/__init__.py');
    const whole = await mapWithin(encoding, root, 1024, AIDER_STYLE);
    expect(filesOf(whole.text)).toEqual([
      'README.md',
      'pyproject.toml',
      'src/shortener/__init__.py',
      'src/shortener/app.py',
      'src/shortener/codes.py',
      'src/shortener/store.py',
      'web/package.json',
      'web/src/form.js',
    ]);
    expect(whole.text).toContain('\nweb/package.json\n');
  });

  test('the same package.json at the root is important', async () => {
    const moved = copyFixture('importantFiles');
    renameSync(join(moved, 'web/package.json'), join(moved, 'package.json'));
    const { text } = await mapWithin(encoding, moved, 16, AIDER_STYLE);
    expect(text).toBe(lines('', 'README.md', '', 'package.json', '', 'pyproject.toml'));
  });
});
