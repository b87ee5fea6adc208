import { expect, test } from 'vitest';
import { oneLine } from '../../dist/src/render/navigationText.js';

test('a message stays one line and carries no terminal escape, whatever a file name in it holds', () => {
  expect(oneLine('quarantined a\nb\tc\x1b[31md\x7f.py')).toBe('quarantined a\\nb\\tc\\x1b[31md\\x7f.py');
  expect(oneLine('plain ünïcode name.py')).toBe('plain ünïcode name.py');
});
