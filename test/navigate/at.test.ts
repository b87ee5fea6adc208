import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { type AtAnswer, at, parsePosition } from '../../dist/src/navigate/at.js';
import { withRepoView } from '../../dist/src/navigate/repoView.js';
import { runCli } from '../support/cli.js';

/** A fixture copied out of this repository, so its own folder is the root. */
function fixture(name: string): string {
  const root = mkdtempSync(join(tmpdir(), `repomap-at-${name}-`));
  cpSync(fileURLToPath(new URL(`../../fixtures/at/${name}`, import.meta.url)), root, { recursive: true });
  return root;
}

/** Each answer as `identifier → path:line:column kind how` lines, `ambiguous` marked. */
async function answers(root: string, specs: string[]): Promise<string[][]> {
  const result = await withRepoView({ root, cwd: root }, (view) => at(view, specs.map(parsePosition), { maxReferences: 5 }));
  return result.positions.map((answer: AtAnswer) => [
    `${answer.identifier}${answer.ambiguous ? ' (ambiguous)' : ''}`,
    ...answer.definitions.map(({ path, line, column, kind, how }) => `${path}:${line}:${column} ${kind} ${how}`),
  ]);
}

describe('at', () => {
  test('Python: self.x, an annotated and a constructed receiver, a re-export, a local shadowing a global, a name-only ambiguity, a builtin', async () => {
    const root = fixture('python');
    expect(
      await answers(root, [
        'app.py:8:11', // order.describe(): `order: Order`
        'app.py:10:11', // print(total): the local, not the module's
        'app.py:11:13', // Order(…): from pkg, which re-exports pkg.models
        'app.py:12:11', // fresh.save(): `fresh = Order(…)`, save from the base class
        'pkg/models.py:13:21', // self.label()
        'pkg/models.py:16:25', // self.total: set in __init__
        'app.py:17:18', // thing.label(): nothing says what thing is
        'app.py:13', // no column: the first tagged identifier on the line
        'app.py:10:5', // print(): a builtin, though Printer has a method of the name
      ]),
    ).toEqual([
      ['describe', 'pkg/models.py:12:9 method receiver'],
      ['total', 'app.py:9:5 variable scope'],
      ['Order', 'pkg/models.py:6:7 class import'],
      ['save', 'pkg/models.py:2:9 method receiver'],
      ['label', 'pkg/models.py:15:9 method receiver'],
      ['total', 'pkg/models.py:10:14 attribute receiver'],
      ['label (ambiguous)', 'pkg/models.py:15:9 method name-only', 'pkg/shipping.py:2:9 method name-only'],
      ['make', 'pkg/models.py:19:5 function import'],
      ['print'],
    ]);
  });

  test("TypeScript: this.x, a receiver typed by new and by annotation, a re-export and export *, a parameter shadowing a global, a member's own name, name-only ambiguities", async () => {
    const root = fixture('typescript');
    expect(
      await answers(root, [
        'src/main.ts:6:22', // new Cart(): from ./index, which re-exports ./cart
        'src/main.ts:7:8', // cart.add(): `cart = new Cart()`
        'src/main.ts:8:10', // total(): `export * from './util'`
        'src/main.ts:8:24', // limit: the parameter, not the module's const
        'src/cart.ts:9:11', // this.count()
        'src/main.ts:12:9', // given.count(): `given: Cart`
        'src/main.ts:13:16', // thing.price(): `thing: any`
        'src/cart.ts:8:16', // this.items.push(): Item[] has no push of the repository's
        'src/cart.ts:12:3', // count's own declaration
        'src/shelf.test.ts:2:16', // thing.weight(): the file shelf.test.ts is named for first
      ]),
    ).toEqual([
      ['Cart', 'src/cart.ts:4:14 class import'],
      ['add', 'src/cart.ts:7:3 method receiver'],
      ['total', 'src/util.ts:3:17 function import'],
      ['limit', 'src/main.ts:5:26 parameter scope'],
      ['count', 'src/cart.ts:12:3 method receiver'],
      ['count', 'src/cart.ts:12:3 method receiver'],
      ['price (ambiguous)', 'src/item.ts:6:3 method name-only', 'src/item.ts:12:3 method name-only'],
      ['push'],
      ['count', 'src/cart.ts:12:3 method scope'],
      ['weight (ambiguous)', 'src/shelf.ts:3:3 method name-only', 'src/item.ts:18:3 method name-only'],
    ]);
  });

  test("JavaScript: what an unannotated function returns, a long chain of `return this`, destructured results, a package's stated types, a declared member before a local, a declaration file that never names an import, an export that is a require, an object literal's member, a call through an alias of a member", async () => {
    const root = fixture('javascript');
    expect(
      await answers(root, [
        'program.js:14:9', // program.parse(): `program = createProgram()`, which returns a new Command
        'program.js:15:98', // parse() after six chained option() calls, each returning this
        'program.js:17:7', // other.parse(): `{ program: other } = makeProgram()`, which returns `{ program }`
        'program.js:18:5', // sub.option(): `{ sub } = makeProgram()`, which returns `{ sub: program.command('sub') }`
        'package.cjs:4:9', // require('./') names the package: TypeScript reads its stated types
        'store.ts:10:15', // nothing says what createStore() gives: the interface's method before a function's local
        'server.cjs:3:13', // require('./plugin') then plugin(): its types' `export = plugin`, the function before the namespace
        'server.cjs:4:5', // app.get(): plugin() returns `plugin.Instance & Ready`, Instance declared in the namespace
        'program.js:20:570', // parse() after forty chained option() calls: each link's owner found once
        'server.cjs:5:31', // child.get(): child, untyped, is typed by register's parameter, the function type Plugin
        'server.cjs:6:5', // app.ready(): Ready, the intersection's other part
        'tasks.cjs:4:1', // once(), destructured from require('./lib/helper.cjs'): TypeScript reads helper.d.cts, which never names it
        'tasks.cjs:5:1', // watch(): declared in helper.d.cts
        'tasks.cjs:6:5', // lib.createStore: `exports.createStore = require('./store.cjs')`, the assignment
        'tasks.cjs:6:19', // .get(): createStore() is what store.cjs gives, a function returning a new Store
        'utils.js:8:16', // utils.isUndefined(): `const utils = { isUndefined }`, the object as written
        'tasks.cjs:8:1', // format(), destructured from require('./lib/format.cjs'): `module.exports = { format }` exports the function
        'tasks.cjs:10:14', // new Widget().draw(): Widget, required through a module that hands it on, is a class
        'utils.js:13:10', // isMissing(): a variable aliasing utils.isUndefined, called: the member, then the variable
      ]),
    ).toEqual([
      ['parse', 'lib/command.js:13:3 method receiver'],
      ['parse', 'lib/command.js:13:3 method receiver'],
      ['parse', 'lib/command.js:13:3 method receiver'],
      ['option', 'lib/command.js:2:3 method receiver'],
      ['parse', 'typings/index.d.ts:4:3 method receiver'],
      ['getState (ambiguous)', 'store.ts:2:3 method name-only', 'store.ts:6:9 function name-only'],
      ['plugin (ambiguous)', 'plugin/index.d.ts:1:18 function import', 'plugin/index.d.ts:2:19 module import', 'plugin/index.js:1:27 function import'],
      ['get', 'plugin/index.d.ts:4:5 method receiver'],
      ['parse', 'lib/command.js:13:3 method receiver'],
      ['get', 'plugin/index.d.ts:4:5 method receiver'],
      ['ready', 'plugin/index.d.ts:10:3 method receiver'],
      ['once (ambiguous)', 'tasks.cjs:1:9 import import', 'lib/helper.cjs:1:10 function import'],
      ['watch (ambiguous)', 'lib/helper.d.cts:1:25 function import', 'lib/helper.cjs:5:10 function import'],
      ['createStore', 'lib/index.cjs:1:9 import import'],
      ['get', 'lib/store.cjs:2:3 method receiver'],
      ['isUndefined', 'utils.js:4:3 property receiver'],
      ['format', 'lib/format.cjs:1:10 function import'],
      ['draw', 'lib/widget.cjs:2:3 method receiver'],
      ['isMissing (ambiguous)', 'utils.js:4:3 property receiver', 'utils.js:12:9 variable scope'],
    ]);
  });

  test('TypeScript: the overload a call fits (null too), a type alias of a type alias, an object exported as written, a member after generic call signatures on lines of their own', async () => {
    const root = fixture('overloads');
    expect(
      await answers(root, [
        'use.ts:5:15', // atom(0): a number fits only the primitive overload
        'use.ts:6:16', // atom((get) => …): a function fits the first
        'use.ts:8:7', // store.get(): createStore() gives PublicStore, which is Store
        'use.ts:9:7', // utils.isArray(): `export default { isArray, … }`
        'api.ts:9:14', // Key, after `<Extra>(…)` signatures the grammar alone misreads
        'use.ts:10:15', // atom(null, …): null fits no function type, so not the derived writable overload
      ]),
    ).toEqual([
      [
        'atom (ambiguous)',
        'atom.ts:12:17 function import',
        'atom.ts:15:17 function import',
        'atom.ts:8:17 function import',
        'atom.ts:10:17 function import',
        'atom.ts:14:17 function import',
      ],
      [
        'atom (ambiguous)',
        'atom.ts:8:17 function import',
        'atom.ts:12:17 function import',
        'atom.ts:15:17 function import',
        'atom.ts:10:17 function import',
        'atom.ts:14:17 function import',
      ],
      ['get', 'store.ts:4:3 method receiver'],
      ['isArray', 'utils.js:6:3 property receiver'],
      ['Key', 'api.ts:1:42 type parameter scope'],
      [
        'atom (ambiguous)',
        'atom.ts:14:17 function import',
        'atom.ts:15:17 function import',
        'atom.ts:8:17 function import',
        'atom.ts:10:17 function import',
        'atom.ts:12:17 function import',
      ],
    ]);
  });

  test('an answer carries references and a hover text; no identifier gives identifier null', async () => {
    const root = fixture('python');
    const result = await withRepoView({ root, cwd: root }, (view) =>
      at(view, [parsePosition('app.py:11:13'), parsePosition('app.py:3')], { maxReferences: 2 }),
    );
    expect(result.positions[0]).toEqual({
      path: 'app.py',
      line: 11,
      column: 13,
      identifier: 'Order',
      definitions: [
        { path: 'pkg/models.py', line: 6, column: 7, kind: 'class', signature: 'class Order(Base)', doc: 'An order of some total.', how: 'import' },
      ],
      ambiguous: false,
      references: [
        { path: 'pkg/models.py', line: 20 },
        { path: 'app.py', line: 1 },
      ],
      referenceFiles: 3,
      hover: 'class Order(Base)\nAn order of some total.',
    });
    expect(result.positions[1]).toMatchObject({ path: 'app.py', line: 3, identifier: null, definitions: [] });
  });

  test('positions are FILE:LINE[:COL], 1-based, read from the right', () => {
    expect(parsePosition('a:b.py:3:7')).toEqual({ path: 'a:b.py', line: 3, column: 7 });
    expect(parsePosition('a.py:3')).toEqual({ path: 'a.py', line: 3 });
    for (const bad of ['a.py', 'a.py:0', 'a.py:3:0', ':3', 'a.py:x']) expect(() => parsePosition(bad)).toThrow(/malformed position/);
  });
});

describe('repomap at (CLI)', () => {
  test('text, JSON, and the exit codes', async () => {
    const root = fixture('typescript');
    const text = await runCli(['at', '--root', root, join(root, 'src/main.ts:7:8'), '--max-references', '1']);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toBe(
      [
        'src/main.ts:7:8 add',
        '  src/cart.ts:7:3 method [receiver] add(item: Item): void',
        '  hover: add(item: Item): void',
        '  references (in 1 file): src/main.ts:7',
        '',
      ].join('\n'),
    );

    const json = await runCli(['at', '--root', root, '--json', 'src/main.ts:13:16', 'src/main.ts:8'], { cwd: root });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(Object.keys(parsed)).toEqual(['positions']);
    expect(parsed.positions.map((answer: AtAnswer) => Object.keys(answer))).toEqual(
      Array(2).fill(['path', 'line', 'column', 'identifier', 'definitions', 'ambiguous', 'references', 'referenceFiles', 'hover']),
    );
    expect(parsed.positions[0].definitions.map((definition: object) => Object.keys(definition))).toEqual(
      Array(2).fill(['path', 'line', 'column', 'kind', 'signature', 'doc', 'how']),
    );
    expect(parsed.positions[1]).toMatchObject({ line: 8, column: 10, identifier: 'total' });

    const none = await runCli(['at', '--root', root, 'src/main.ts:2'], { cwd: root });
    expect(none).toMatchObject({ code: 2, stdout: '', stderr: 'repomap: no identifier at src/main.ts:2\n' });

    const outside = await runCli(['at', '--root', root, '/etc/hostname:1'], { cwd: root });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/^repomap: .*\n$/);

    const malformed = await runCli(['at', '--root', root, 'src/main.ts:0'], { cwd: root });
    expect(malformed).toMatchObject({ code: 1, stderr: "repomap: malformed position 'src/main.ts:0': expected FILE:LINE[:COL], 1-based\n" });

    const missing = await runCli(['at', '--root', root], { cwd: root });
    expect(missing.code).toBe(1);
  });
});
