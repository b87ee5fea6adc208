import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveFixture } from '../support/importTargets.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/java', import.meta.url));
const MAIN = 'src/main/java/';

describe('Java import resolution', () => {
  test('imports name the files declaring their class, or every file of a wildcard package', async () => {
    const { targets, resolved } = await resolveFixture(FIXTURE);
    expect(targets).toEqual({
      [`${MAIN}com/acme/app/App.java`]: {
        'com.acme.model.Order': [`${MAIN}com/acme/model/Order.java`],
        // A nested class, a static member, a static wildcard: the file of the outer class.
        'com.acme.model.Order.Line': [`${MAIN}com/acme/model/Order.java`],
        'com.acme.util': [`${MAIN}com/acme/util/Numbers.java`, `${MAIN}com/acme/util/Strings.java`],
        'com.acme.util.Strings.pad': [`${MAIN}com/acme/util/Strings.java`],
        'com.acme.util.Numbers': [`${MAIN}com/acme/util/Numbers.java`],
        // Found by its declared package, not by its folder.
        'com.acme.legacy.Ledger': [`${MAIN}legacy/Ledger.java`],
        'java.util.List': [],
        'com.acme.missing.Gone': [],
      },
      [`${MAIN}com/acme/model/Order.java`]: { 'java.util.List': [] },
      [`${MAIN}legacy/Ledger.java`]: { 'com.acme.model.Order': [`${MAIN}com/acme/model/Order.java`] },
      // Across source roots; the same package's App and Helper need no import and get no edge.
      'src/test/java/com/acme/app/AppTest.java': {
        'com.acme.model': [`${MAIN}com/acme/model/Order.java`],
        'org.junit.jupiter.api.Test': [],
      },
    });
    expect(resolved.counts.java).toEqual({ entries: 12, resolved: 8 });
  });
});
