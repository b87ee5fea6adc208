import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveFixture } from '../support/fixtureImports.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/python', import.meta.url));

describe('python imports', () => {
  test('each entry names the files Python would load: src-layout, scripts, relative and submodule imports', async () => {
    const { byModule, counts } = await resolveFixture(FIXTURE);
    expect(byModule).toEqual({
      'manage.py': {
        // A root-level module; `tools` has no __init__.py (a namespace package) but holds the submodule.
        settings: ['settings.py'],
        tools: ['tools/report.py'],
      },
      'src/shop/__init__.py': { '.cart': ['src/shop/cart.py'] },
      'src/shop/cart.py': {
        dataclasses: [],
        // `discount` is defined in the package, `rules` is a submodule.
        'shop.pricing': ['src/shop/pricing/__init__.py', 'src/shop/pricing/rules.py'],
      },
      'src/shop/pricing/__init__.py': { '.': ['src/shop/pricing/rules.py'] },
      'src/shop/pricing/rules.py': {
        'os.path': [],
        '..': ['src/shop/cart.py'],
        '..cart': ['src/shop/cart.py'],
        // src/outside.py does not exist.
        '...outside': [],
      },
      // tests/ is no package: `shop` is found in the package root src/, `helpers` beside the test.
      'tests/helpers.py': { shop: ['src/shop/__init__.py'] },
      'tests/test_cart.py': {
        pytest: [],
        'shop.cart': ['src/shop/cart.py'],
        shop: ['src/shop/pricing/__init__.py', 'src/shop/__init__.py'],
        'shop.missing': [],
        helpers: ['tests/helpers.py'],
      },
      'tools/report.py': { json: [], 'shop.pricing.rules': ['src/shop/pricing/rules.py'] },
    });
    expect(counts.python).toEqual({ entries: 18, resolved: 12 });
  });
});
