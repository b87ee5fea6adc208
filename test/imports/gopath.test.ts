import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveFixture } from '../support/importTargets.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/gopath', import.meta.url));

describe('Go import resolution without go.mod', () => {
  test('import paths are folders from the root, as in a GOPATH src folder', async () => {
    const { targets } = await resolveFixture(FIXTURE);
    expect(targets).toEqual({
      'github.com/acme/app/main.go': { fmt: [], 'github.com/acme/lib': ['github.com/acme/lib/lib.go'] },
      'github.com/acme/lib/lib_test.go': { testing: [] },
    });
  });
});
