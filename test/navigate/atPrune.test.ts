import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type AtAnswer, at, parsePosition } from '../../dist/src/navigate/at.js';
import { PRUNE_FROM_BYTES, prunableLines } from '../../dist/src/navigate/atPrune.js';
import { withRepoView } from '../../dist/src/navigate/repoView.js';
import type { Definition } from '../../dist/src/record/fileRecord.js';

function definition(name: string, kind: string, line: number, endLine: number): Definition {
  return { name, kind, line, endLine, scopeLines: [], signature: name, doc: '' };
}

/** Which 1-based lines a mask cuts. */
function cutLines(mask: Uint8Array | null): number[] {
  return mask ? [...mask].flatMap((value, at) => (value ? [at + 1] : [])) : [];
}

describe('at on a large file: the insides of classes and bodies that do not hold the position are left out of the parse', () => {
  test("a body's or a class's inside is cut from the line after its head's `{` to the line before its closing `}`; a head over several lines, braces in a parameter's type", () => {
    const lines = [
      'function short() {', // 1
      '  return 1;', // 2
      '}', // 3
      'function long(', // 4
      '  options: { size: number },', // 5
      '): number {', // 6
      '  const size = options.size;', // 7
      '  return size;', // 8
      '}', // 9
      'const value = compute(', // 10: an expression body, no `{`
      '  1,', // 11
      '  2);', // 12
      'function held() {', // 13
      '  const x = 1;', // 14
      '  return x;', // 15
      '}', // 16
      'export class Basket extends Base {', // 17
      '  fill(item) {', // 18
      '    return item;', // 19
      '  }', // 20
      '}', // 21
      'interface Shape {', // 22
      '  area(): number;', // 23
      '}', // 24
    ];
    const definitions = [
      definition('short', 'function', 1, 3),
      definition('long', 'function', 4, 9),
      definition('value', 'function', 10, 12),
      definition('held', 'function', 13, 16),
      definition('Basket', 'class', 17, 21),
      definition('fill', 'method', 18, 20),
      definition('Shape', 'interface', 22, 24),
    ];
    // `short` spans 3 lines and its body one; `value` has no body; an interface is kept (its members are what a type says).
    expect(cutLines(prunableLines(lines, definitions, 14))).toEqual([2, 7, 8, 18, 19, 20]);
    // Inside a class: its other members' bodies are cut, its own members kept.
    expect(cutLines(prunableLines(lines, definitions, 19))).toEqual([2, 7, 8, 14, 15]);
    // No position (a file a resolution reaches): every body.
    expect(cutLines(prunableLines(lines, definitions, 0))).toEqual([2, 7, 8, 14, 15, 18, 19, 20]);
  });

  test('answers as a whole parse does: a local, a member of this, what a function whose body was cut returns, a member of a class whose inside was cut', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repomap-at-prune-'));
    const pads = Array.from({ length: 400 }, (_, at) => [
      `  pad${at}(value) {`,
      ...Array.from(
        { length: 4 },
        (_, line) => `    const total${line} = value + ${line} * 1000000 + 'padding the body of this method so that the file is large';`,
      ),
      '    return value;',
      '  }',
    ]).flat();
    const source = [
      'export class Shop {',
      '  add(item) {',
      '    const basket = makeBasket();',
      '    basket.fill(item);',
      '    this.pad3();',
      '    return this;',
      '  }',
      ...pads,
      '}',
      '',
      'function makeBasket() {',
      '  const basket = new Basket();',
      '  return basket;',
      '}',
      '',
      'class Basket {',
      '  fill(item) {',
      '    return item;',
      '  }',
      '}',
      '',
    ].join('\n');
    expect(source.length).toBeGreaterThan(PRUNE_FROM_BYTES);
    writeFileSync(join(root, 'big.js'), source);
    const makeBasket = 7 + pads.length + 3;
    const answers = await withRepoView({ root, cwd: root }, (view) =>
      at(view, ['big.js:4:12', 'big.js:5:11', 'big.js:3:12', `big.js:${makeBasket + 1}:22`].map(parsePosition), { maxReferences: 0 }),
    );
    expect(answers.positions.map((answer: AtAnswer) => answer.definitions.map(({ line, kind, how }) => `${answer.identifier} ${line} ${kind} ${how}`))).toEqual(
      [
        // makeBasket's body and Basket's inside are cut from this position's parse: what it returns and fill are read from the whole file.
        [`fill ${makeBasket + 6} method receiver`],
        ['pad3 29 method receiver'],
        ['basket 3 variable scope'],
        // A position inside a body that another position's parse cut.
        [`Basket ${makeBasket + 5} class scope`],
      ],
    );
  });
});
