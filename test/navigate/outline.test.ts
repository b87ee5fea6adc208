import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get_encoding } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NoMapError } from '../../src/errors.js';
import { outline } from '../../src/navigate/outline.js';
import type { Outline, OutlineEntry } from '../../src/navigate/outlineTree.js';
import { withRepoView } from '../../src/navigate/repoView.js';
import { runCli } from '../support/cli.js';

/**
 * `repomap outline` on a small shop (fixtures/outline): Python with classes, methods, docstrings
 * and a subpackage, a TypeScript client, a Go server, a README, a test file. In the default
 * ranking rules.py comes first (cart.py and the test call its `discount`), then main.go, whose
 * names it uses itself: the budgeted outlines below show definitions in that order.
 */
const FIXTURE = fileURLToPath(new URL('../../fixtures/outline', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'repomap-outline-'));
cpSync(FIXTURE, root, { recursive: true });
// A folder that exists and holds no indexed file.
mkdirSync(join(root, 'empty'));

async function outlineCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runCli(['outline', ...args, '--root', root], { cwd: root });
  return { code, stdout, stderr };
}

const ok = (stdout: string) => ({ code: 0, stdout, stderr: '' });

const SIGNATURES = `README.md
cmd/shop/
  main.go
    1: package main
    6: type Server struct
    11: func (s *Server) Run() error
    15: func main()
src/
  shop/
    __init__.py
    cart.py
      4: class Cart
        7: def __init__(self, owner)
        11: def add(self, name, cents)
        15: def total(self)
      20: def make_cart(owner)
    pricing/
      rules.py
        1: RATE = 10
        4: def discount(cents)
        9: class Rule
          10: def apply(self, cents)
  web/
    client.ts
      1: interface Item
      7: class Client
        8: constructor(private readonly base: string)
        11: async fetchItems(): Promise<Item[]>
      17: function formatPrice(cents: number): string
`;

describe('repomap outline on the built binary', () => {
  beforeAll(async () => {
    expect((await runCli(['index', root])).code).toBe(0);
  });

  test('signatures (the default): folders as a tree, methods under their classes, tests left out', async () => {
    expect(await outlineCli()).toEqual(ok(SIGNATURES));
  });

  test('--detail files: the tree of paths alone', async () => {
    expect(await outlineCli('--detail', 'files')).toEqual(
      ok(`README.md
cmd/shop/
  main.go
src/
  shop/
    __init__.py
    cart.py
    pricing/
      rules.py
  web/
    client.ts
`),
    );
  });

  test('--detail full --tests: each first doc line, and the test file', async () => {
    expect(await outlineCli('--detail', 'full', '--tests')).toEqual(
      ok(`README.md
cmd/shop/
  main.go
    1: package main
    6: type Server struct — Server serves the shop's items.
    11: func (s *Server) Run() error — Run listens until the process ends.
    15: func main()
src/
  shop/
    __init__.py
    cart.py
      4: class Cart — A customer's cart of items.
        7: def __init__(self, owner)
        11: def add(self, name, cents) — Put an item in the cart.
        15: def total(self) — The price of everything in the cart, discounts taken off.
      20: def make_cart(owner)
    pricing/
      rules.py
        1: RATE = 10
        4: def discount(cents) — Ten percent off above a hundred.
        9: class Rule
          10: def apply(self, cents)
  web/
    client.ts
      1: interface Item
      7: class Client — Talks to the shop's server.
        8: constructor(private readonly base: string)
        11: async fetchItems(): Promise<Item[]> — The items for sale.
      17: function formatPrice(cents: number): string
tests/
  test_cart.py
    4: def test_total()
`),
    );
  });

  test('--depth: deeper files counted in the deepest folder shown', async () => {
    expect(await outlineCli('src', '--depth', '0')).toEqual(ok('src/\n  … 4 more files\n'));
    expect(await outlineCli('src', '--depth', '1', '--detail', 'files')).toEqual(
      ok(`src/
  shop/
    __init__.py
    cart.py
    … 1 more file
  web/
    client.ts
`),
    );
  });

  test('--lang, repeatable', async () => {
    expect(await outlineCli('--lang', 'go', '--lang', 'typescript')).toEqual(
      ok(`cmd/shop/
  main.go
    1: package main
    6: type Server struct
    11: func (s *Server) Run() error
    15: func main()
src/web/
  client.ts
    1: interface Item
    7: class Client
      8: constructor(private readonly base: string)
      11: async fetchItems(): Promise<Item[]>
    17: function formatPrice(cents: number): string
`),
    );
  });

  test('PATH: a file, and a test folder (whose tests are kept)', async () => {
    expect(await outlineCli('src/shop/cart.py')).toEqual(
      ok(`src/shop/cart.py
  4: class Cart
    7: def __init__(self, owner)
    11: def add(self, name, cents)
    15: def total(self)
  20: def make_cart(owner)
`),
    );
    expect(await outlineCli('tests')).toEqual(ok('tests/\n  test_cart.py\n    4: def test_total()\n'));
  });

  test('--max-tokens: the tree first, then definitions in rank order, the rest counted', async () => {
    // 100 tokens: the whole tree, all four of rules.py's definitions and main.go's first.
    expect(await outlineCli('-t', '100')).toEqual(
      ok(`README.md
cmd/shop/
  main.go
    1: package main
    … 3 more
src/
  shop/
    __init__.py
    cart.py
      … 5 more
    pricing/
      rules.py
        1: RATE = 10
        4: def discount(cents)
        9: class Rule
          10: def apply(self, cents)
  web/
    client.ts
      … 5 more
`),
    );
    // 60 tokens: not the whole tree; the three files ranked first, the others counted where they are.
    expect(await outlineCli('-t', '60')).toEqual(
      ok(`cmd/shop/
  main.go
    … 4 more
src/
  shop/
    pricing/
      rules.py
        … 4 more
    … 2 more files
  web/
    client.ts
      … 5 more
… 1 more file
`),
    );
    expect(await outlineCli('src/shop/cart.py', '-t', '20')).toEqual(ok('src/shop/cart.py\n  4: class Cart\n  … 4 more\n'));
  });

  test('--format compact, xml, markdown: the same outline, cut the same way', async () => {
    const args = ['src/shop', '--detail', 'full', '-t', '70', '--format'];
    expect(await outlineCli(...args, 'compact')).toEqual(
      ok(`# outline: folders end in /, one space a level, a definition as its signature :line
src/shop/
 __init__.py
 cart.py
  … 5 more
 pricing/
  rules.py
   RATE = 10 :1
   … 3 more
`),
    );
    expect(await outlineCli(...args, 'xml')).toEqual(
      ok(`<outline path="src/shop">
  <folder path="src/shop">
    <folder path="src/shop/pricing">
      <file path="src/shop/pricing/rules.py" language="python">
        <more definitions="4"/>
      </file>
    </folder>
    <more files="2"/>
  </folder>
</outline>
`),
    );
    expect(await outlineCli(...args, 'markdown')).toEqual(
      ok(`- \`src/shop/\`
  - \`__init__.py\`
  - \`cart.py\`
    - … 5 more
  - \`pricing/\`
    - \`rules.py\`
      - \`1: RATE = 10\`
      - … 3 more
`),
    );
    expect((await outlineCli('src/shop/pricing', '--detail', 'full', '--format', 'xml')).stdout).toBe(`<outline path="src/shop/pricing">
  <folder path="src/shop/pricing">
    <file path="src/shop/pricing/rules.py" language="python">
      <definition line="1" kind="constant" name="RATE" signature="RATE = 10"/>
      <definition line="4" kind="function" name="discount" signature="def discount(cents)" doc="Ten percent off above a hundred."/>
      <definition line="9" kind="class" name="Rule" signature="class Rule">
        <definition line="10" kind="method" name="apply" signature="def apply(self, cents)"/>
      </definition>
    </file>
  </folder>
</outline>
`);
  });

  test('--json: the tree shown, its counts, the text and its tokens', async () => {
    const { code, stdout } = await outlineCli('src/shop', '--detail', 'full', '-t', '60', '--json');
    expect(code).toBe(0);
    const shown = JSON.parse(stdout) as Outline;
    const text = (await outlineCli('src/shop', '--detail', 'full', '-t', '60')).stdout;
    expect(shown).toEqual({
      path: 'src/shop',
      detail: 'full',
      format: 'text',
      tree: {
        type: 'folder',
        path: 'src/shop',
        entries: [
          { type: 'file', path: 'src/shop/__init__.py', language: 'python', definitions: [], moreDefinitions: 0 },
          { type: 'file', path: 'src/shop/cart.py', language: 'python', definitions: [], moreDefinitions: 5 },
          {
            type: 'folder',
            path: 'src/shop/pricing',
            entries: [
              {
                type: 'file',
                path: 'src/shop/pricing/rules.py',
                language: 'python',
                definitions: [
                  { name: 'RATE', kind: 'constant', line: 1, endLine: 1, signature: 'RATE = 10', doc: '', children: [] },
                  {
                    name: 'discount',
                    kind: 'function',
                    line: 4,
                    endLine: 6,
                    signature: 'def discount(cents)',
                    doc: 'Ten percent off above a hundred.',
                    children: [],
                  },
                ],
                moreDefinitions: 2,
              },
            ],
            moreFiles: 0,
          },
        ],
        moreFiles: 0,
      },
      files: { shown: 3, total: 3 },
      definitions: { shown: 2, total: 9 },
      text,
      tokens: encoded(text),
      budget: 60,
    });
    expect(shown.tokens).toBe(58);
    // Without --max-tokens, the default budget.
    const byDefault = JSON.parse((await outlineCli('--detail', 'files', '--json')).stdout) as Outline;
    expect(byDefault).toMatchObject({ definitions: null, tokens: 39, budget: 4096, files: { shown: 6, total: 6 } });
  });

  test('exit 2 when nothing is left to outline or nothing fits; exit 1 for a bad PATH or flag', async () => {
    expect(await outlineCli('empty')).toEqual({ code: 2, stdout: '', stderr: "repomap: 'empty' holds no indexed file\n" });
    expect(await outlineCli('--lang', 'java')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'repomap: none of the 7 indexed files under the repository is left to outline (none in --lang java; 1 left out as tests (--tests keeps them))\n',
    });
    expect(await outlineCli('-t', '3')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'repomap: no outline of the repository fits in 3 tokens (the smallest takes 6)\n',
    });
    expect(await outlineCli('nothere')).toEqual({ code: 1, stdout: '', stderr: "repomap: PATH 'nothere' does not exist\n" });
    expect(await outlineCli('..')).toEqual({ code: 1, stdout: '', stderr: `repomap: PATH '..' is outside the repository ${root}\n` });
    expect(await outlineCli('--lang', 'cobol')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^repomap: --lang takes values among python, .*, not 'cobol'\n$/),
    });
    expect(await outlineCli('src', 'web')).toEqual({
      code: 1,
      stdout: '',
      stderr: "repomap: unexpected argument 'web': repomap outline takes one PATH\n",
    });
  });
});

const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());
const encoded = (text: string) => encoding.encode(text).length;

/** Files and definitions a text shows, plus those its `… N more` lines count. */
function accounted(text: string): { files: number; definitions: number } {
  let files = 0;
  let definitions = 0;
  for (const line of text.split('\n').filter(Boolean)) {
    const more = /^ *… (\d+) more( files?)?$/.exec(line);
    if (more) {
      if (more[2]) files += Number(more[1]);
      else definitions += Number(more[1]);
    } else if (/^ *\d+: /.test(line)) definitions++;
    else if (!line.endsWith('/')) files++;
  }
  return { files, definitions };
}

function shownFiles(entry: OutlineEntry): number {
  return entry.type === 'file' ? 1 : entry.entries.reduce((sum, child) => sum + shownFiles(child), 0);
}

describe('outline under every budget (the library)', () => {
  test('exact cl100k counts within the budget, and every file and definition shown or counted', async () => {
    await withRepoView({ root, cwd: root }, async (view) => {
      for (const detail of ['signatures', 'full'] as const) {
        const whole = await outline(view, { detail, tests: true, maxTokens: 100_000 });
        // A null budget is none: the same text, nothing counted.
        expect(await outline(view, { detail, tests: true, maxTokens: null })).toMatchObject({ text: whole.text, tokens: null, budget: null });
        for (let budget = 0; budget <= whole.tokens! + 2; budget++) {
          let result: Outline;
          try {
            result = await outline(view, { detail, tests: true, maxTokens: budget });
          } catch (error) {
            expect(error).toBeInstanceOf(NoMapError);
            expect(budget).toBeLessThan(6);
            continue;
          }
          expect(result.tokens).toBe(encoded(result.text));
          expect(result.tokens).toBeLessThanOrEqual(budget);
          const { files, definitions } = accounted(result.text);
          expect(files).toBe(7);
          // A file left out is counted, not its definitions.
          if (result.files.shown === 7) expect(definitions).toBe(19);
          expect(shownFiles(result.tree)).toBe(result.files.shown);
          if (budget >= whole.tokens!) expect(result.text).toBe(whole.text);
        }
      }
      for (const format of ['compact', 'xml', 'markdown'] as const) {
        const whole = await outline(view, { detail: 'full', tests: true, format, maxTokens: 100_000 });
        for (let budget = 0; budget <= whole.tokens! + 2; budget += 3) {
          const result = await outline(view, { detail: 'full', tests: true, format, maxTokens: budget }).catch((error: unknown) => error);
          if (result instanceof NoMapError) continue;
          const { tokens, text, files } = result as Outline;
          expect(tokens).toBe(encoded(text));
          expect(tokens).toBeLessThanOrEqual(budget);
          if (budget >= whole.tokens!) expect(files.shown).toBe(7);
        }
      }
    });
  });
});

describe('names holding control characters', () => {
  const hostile = mkdtempSync(join(tmpdir(), 'repomap-outline-names-'));
  writeFileSync(join(hostile, 'a\nb.py'), 'def f():\n    pass\n');
  writeFileSync(join(hostile, 'c\u0001d.py'), 'class K:\n    def m(self):\n        pass\n');

  test('are shown escaped, one line each, and counted exactly under every budget', async () => {
    expect(await runCli(['outline', '--root', hostile])).toMatchObject({
      code: 0,
      stdout: 'a\\x0ab.py\n  1: def f()\nc\\x01d.py\n  1: class K\n    2: def m(self)\n',
    });
    await withRepoView({ root: hostile, cwd: hostile }, async (view) => {
      for (let budget = 6; budget <= 30; budget++) {
        const result = await outline(view, { maxTokens: budget });
        expect(result.tokens).toBe(encoded(result.text));
        expect(result.tokens).toBeLessThanOrEqual(budget);
      }
    });
  });
});
