import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveFixture } from '../support/fixtureImports.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/python', import.meta.url));
const HUBS = fileURLToPath(new URL('../../fixtures/imports/python-hubs', import.meta.url));

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
      // tests/ is no package: `shop` is found in the package root src/, `helpers` beside the test;
      // shop/__init__.py only re-exports Cart, so Cart's file is named.
      'tests/helpers.py': { shop: ['src/shop/cart.py'] },
      'tests/test_cart.py': {
        pytest: [],
        'shop.cart': ['src/shop/cart.py'],
        shop: ['src/shop/pricing/__init__.py', 'src/shop/cart.py'],
        'shop.missing': [],
        helpers: ['tests/helpers.py'],
      },
      'tools/report.py': { json: [], 'shop.pricing.rules': ['src/shop/pricing/rules.py'] },
    });
    expect(counts.python).toEqual({ entries: 18, resolved: 12 });
  });

  test('names taken from a package name the files defining them when __init__.py only imports them', async () => {
    const { byModule } = await resolveFixture(HUBS);
    expect(byModule).toEqual({
      'app/main.py': {
        // Session: named by the hub; Cart: through `from .models import *`, then models/__init__.py
        // (two hubs); connect: defined by the hub; Unknown: imported by the hub from a file that
        // does not define it; Ping: only in the cycle shop ↔ shop.loop; Pong: out of the cycle;
        // get: a method of Session, no module's name. The last four stay on the hub.
        shop: ['shop/sessions.py', 'shop/models/cart.py', 'shop/__init__.py', 'shop/loop/pong.py'],
        'shop.models': ['shop/models/cart.py'],
      },
      // `from shop import *` takes the whole hub (the same entry as `import shop`).
      'app/star.py': { shop: ['shop/__init__.py'] },
      'shop/__init__.py': {
        '.sessions': ['shop/sessions.py'],
        '.models': ['shop/models/__init__.py'],
        '.loop': ['shop/loop/__init__.py', 'shop/loop/pong.py'],
        '.version': ['shop/version.py'],
      },
      'shop/loop/__init__.py': { shop: ['shop/__init__.py', 'shop/loop/pong.py'], '.pong': ['shop/loop/pong.py'] },
      'shop/models/__init__.py': { '.cart': ['shop/models/cart.py'] },
    });
  });
});
