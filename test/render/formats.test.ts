import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { NoMapError, openRepoMap, type RepoMapper } from '../../dist/src/index.js';
import { loadCl100k } from '../../dist/src/pack/tokenCount.js';
import { oneLine } from '../../dist/src/render/formatKit.js';
import { MAP_FORMAT_NAMES, MAP_STYLE_NAMES } from '../../dist/src/render/formats.js';
import { escapeXml } from '../../dist/src/render/xmlFormat.js';

/**
 * The rule of src/render/formats.ts, for every registered style × format: a map's full cl100k
 * encode counts what the packer counted line by line, so no map exceeds its budget, across a
 * sweep of budgets on the fixture repositories and on one whose names and lines are hostile.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures', import.meta.url));
const BUDGETS = [50, 75, 100, 150, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200, 4000];

function copyOf(fixture: string): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-formats-'));
  cpSync(join(FIXTURES, fixture), root, { recursive: true });
  return root;
}

/** Names with a newline, a tab, markup and backticks; lines with `\r` inside, `<`, `&`, `]]>`, fences, whitespace-only lines. */
function hostileRepo(): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-formats-hostile-'));
  const files: Record<string, string> = {
    'pkg/a&b <c>.py': 'def amp(x):\n    return x & 1 < 2\n\n\n    \ndef cdata():\n    return "]]>"\n',
    'pkg/new\nline.py': 'from pkg.core import Core\n\ndef odd(core: Core) -> Core:\n    return core\n',
    'pkg/tab\there.py': 'FENCE = "```"\r\nclass Fenced:\r\n    """```md\r\n    ```"""\r\n    def run(self):\r\n        return 1\r\n',
    'pkg/`tick`.py': 'def tick():\n    x = 1\r# a lone CR inside a line\n    return x\n',
    'pkg/core.py': 'class Core:\n    def go(self, a: int,\n           b: int) -> int:\n        return a + b\n\n\n\nCORE = Core()\n',
    'pkg/main.py': 'from pkg.core import Core, CORE\n\ndef main():\n    return Core().go(1, 2) + CORE.go(3, 4)\n',
    'tests/test_core.py': 'from pkg.core import Core\n\ndef test_go():\n    assert Core().go(1, 2) == 3\n',
    'notes <&>.txt': 'not code\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const repos: [string, string][] = [
  ['map/formats', copyOf('map/formats')],
  ['map/signatures', copyOf('map/signatures')],
  ['map/plain', copyOf('map/plain')],
  ['languages/polyglot', copyOf('languages/polyglot')],
  ['hostile', hostileRepo()],
];
const mappers = new Map<string, Promise<RepoMapper>>();
afterAll(async () => {
  for (const mapper of mappers.values()) await (await mapper).close();
});

function mapperOf(root: string): Promise<RepoMapper> {
  let mapper = mappers.get(root);
  if (!mapper) {
    mapper = openRepoMap({ root, jobs: 1 });
    mappers.set(root, mapper);
  }
  return mapper;
}

describe('every style × format: the packer counts what a full encode counts, within every budget', () => {
  const cases = repos.flatMap(([name, root]) => MAP_STYLE_NAMES.flatMap((style) => MAP_FORMAT_NAMES.map((format) => [name, style, format, root] as const)));

  test.each(cases)('%s, %s style, %s format', async (_name, style, format, root) => {
    const count = await loadCl100k();
    const mapper = await mapperOf(root);
    let maps = 0;
    for (const maxTokens of BUDGETS) {
      try {
        const map = await mapper.map({ maxTokens, style, format });
        expect(count(map.text)).toBe(map.report.tokens);
        expect(map.report.tokens).toBeLessThanOrEqual(maxTokens);
        maps++;
      } catch (error) {
        // The one way out: nothing fits, which only the smallest budgets may meet.
        expect(error).toBeInstanceOf(NoMapError);
        expect(maxTokens).toBeLessThan(200);
      }
    }
    expect(maps).toBeGreaterThanOrEqual(BUDGETS.length - 3);
  });

  test('the hostile names stay on their lines: escaped in every format but text', async () => {
    const mapper = await mapperOf(repos.at(-1)![1]);
    for (const format of MAP_FORMAT_NAMES.filter((name) => name !== 'text')) {
      const { text } = await mapper.map({ maxTokens: 4000, format });
      expect(text).toContain('pkg/new\\x0aline.py');
      expect(
        text.endsWith('\n') &&
          text
            .slice(0, -1)
            .split('\n')
            .every((line) => /\S/.test(line)),
      ).toBe(true);
    }
  });
});

describe('escapes', () => {
  test('xml: markup escaped, quotes in attributes, a CR by reference, what XML cannot hold replaced', () => {
    expect(escapeXml('a < b && c ]]> "d"\r\u0001', false)).toBe('a &lt; b &amp;&amp; c ]]&gt; "d"&#13;\ufffd');
    expect(escapeXml('a"b<', true)).toBe('a&quot;b&lt;');
  });

  test('a path on one line: control characters as \\xNN', () => {
    expect(oneLine('a\nb\tc\r')).toBe('a\\x0ab\\x09c\\x0d');
    expect(oneLine('plain/path.py')).toBe('plain/path.py');
  });
});
