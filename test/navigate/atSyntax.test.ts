import { describe, expect, test } from 'vitest';
import { separateSignatures } from '../../dist/src/navigate/atSyntax.js';

describe("at's TypeScript text before its parse", () => {
  test('a `;` ends each member that a generic call signature on a line of its own follows, and nothing else', () => {
    const lines = [
      'interface Fetcher<Key> {', // 1
      '  (key: Key): Promise<Data>  ', // 2: trailing blanks go with the `;`
      '  // the generic one', // 3: a comment is passed over
      '  <Extra>(key: Key, extra: Extra): Promise<Data>', // 4
      '  <Other>(', // 5
      '    other: Other,', // 6
      '  ): Promise<', // 7
      '    Data', // 8
      '  >', // 9
      '  <Last>(last: Last): void', // 10
      '}', // 11
      'const pick =', // 12: an assignment goes on
      '  <T>(value: T) => value;', // 13
      'const shifted = 1', // 14
      '  << 2;', // 15: a shift is no signature
    ];
    const separated = separateSignatures(lines)!;
    expect(separated.flatMap((line, at) => (line === lines[at] ? [] : [`${at + 1}: ${line}`]))).toEqual([
      '2:   (key: Key): Promise<Data>;',
      '4:   <Extra>(key: Key, extra: Extra): Promise<Data>;',
      '9:   >;',
    ]);
    expect(separateSignatures(['interface A {', '  (key: string): void', '}'])).toBeNull();
  });
});
