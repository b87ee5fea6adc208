import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { libcFamily, loadLmdb } from '../../dist/src/store/loadLmdb.js';

const require = createRequire(import.meta.url);

/** detect-libc, which lmdb's native-build finder asks when LIBC is unset: the answer to agree with. */
function detectLibc(): { familySync: () => string | null } | null {
  try {
    return require('detect-libc') as { familySync: () => string | null };
  } catch {
    return null;
  }
}

describe('lmdb loaded without detect-libc', () => {
  const detected = detectLibc();
  test.skipIf(detected === null || process.platform !== 'linux')(
    'the C library read from the memory map is the one detect-libc finds (skipped: no detect-libc, or not Linux)',
    () => {
      expect(libcFamily()).toBe(detected!.familySync());
    },
  );

  test('loads lmdb and leaves LIBC as it was', () => {
    const before = process.env.LIBC;
    expect(typeof loadLmdb().open).toBe('function');
    expect(process.env.LIBC).toBe(before);
  });
});
