import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveFixture } from '../support/fixtureImports.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/ecmascript', import.meta.url));
const HUBS = fileURLToPath(new URL('../../fixtures/imports/ecmascript-hubs', import.meta.url));

/** The fixture's entries, workspaces installed or not. */
const EXPECTED = {
  // jsconfig.json paths; Money through the package's index, which re-exports money.js whole.
  'apps/site/src/index.js': { '~/nav': ['apps/site/src/nav.js'], '@acme/core': ['packages/core/src/money.ts'] },
  'apps/web/lib/legacy.cjs': {
    './base': ['apps/web/lib/base.js'],
    // A real file, but outside the root.
    '../../../../python/settings.py': [],
  },
  'apps/web/src/App.tsx': {
    '@acme/core/src/money': ['packages/core/src/money.ts'],
    // Exported as ./dist/Button.js: built output, so its source.
    '@acme/ui/button': ['packages/ui/src/Button.tsx'],
    // Not in the package's exports.
    '@acme/ui/theme': [],
    // `.js` written, `.ts` on disk.
    './util/index.js': ['apps/web/src/util/index.ts'],
    './util/missing': [],
    './Chart': ['apps/web/src/Chart.jsx'],
  },
  'apps/web/src/main.tsx': {
    // main is dist/index.js, so src/index, which re-exports what is taken from it.
    '@acme/core': ['packages/core/src/money.ts', 'packages/core/src/rates.ts'],
    '@acme/ui': ['packages/ui/src/Button.tsx'],
    'react-dom/client': [],
    // tsconfig.json paths, beside the file's folder.
    '@/App': ['apps/web/src/App.tsx'],
    './styles.css': ['apps/web/src/styles.css'],
    '../config.json': ['apps/web/config.json'],
    '../lib/legacy.cjs': ['apps/web/lib/legacy.cjs'],
  },
  // packages/core/tsconfig.json extends a package that is not installed: resolved without it.
  'packages/core/src/index.ts': {
    'node:events': [],
    'lodash/debounce': [],
    './money.js': ['packages/core/src/money.ts'],
    './rates': ['packages/core/src/rates.ts'],
  },
  'packages/core/src/money.ts': { './rates': ['packages/core/src/rates.ts'] },
  'packages/ui/src/Button.tsx': { '@acme/core': ['packages/core/src/money.ts'] },
  'packages/ui/src/index.tsx': { './Button': ['packages/ui/src/Button.tsx'] },
};

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A copy with its workspaces installed and built, a third-party package, and a package linked from outside the root. */
function installedCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'repomap-ecmascript-'));
  cpSync(FIXTURE, root, { recursive: true });
  for (const name of ['core', 'ui']) {
    mkdirSync(join(root, 'node_modules/@acme'), { recursive: true });
    symlinkSync(join(root, 'packages', name), join(root, 'node_modules/@acme', name));
  }
  write(root, 'packages/core/dist/index.js', 'export {};\n');
  write(root, 'packages/ui/dist/index.js', 'export {};\n');
  write(root, 'packages/ui/dist/Button.js', 'export {};\n');
  write(root, 'node_modules/react-dom/package.json', '{ "name": "react-dom" }\n');
  write(root, 'node_modules/react-dom/client.js', 'exports.createRoot = () => {};\n');
  const outside = mkdtempSync(join(tmpdir(), 'repomap-outside-'));
  write(outside, 'index.js', 'module.exports = {};\n');
  symlinkSync(outside, join(root, 'node_modules/linked'));
  write(root, 'apps/web/src/extra.ts', "import linked from 'linked';\nimport { Button } from '@acme/ui/button';\n");
  return root;
}

describe('javascript and typescript imports', () => {
  test('each entry names the file it loads: relative, tsconfig and jsconfig paths, workspace packages not installed', async () => {
    const { byModule, counts } = await resolveFixture(FIXTURE);
    expect(byModule).toEqual(EXPECTED);
    expect(counts.ecmascript).toEqual({ entries: 24, resolved: 18 });
  });

  test('installed workspaces resolve through node_modules to their sources; node_modules and links out of the root are no targets', async () => {
    const root = installedCopy();
    // As `repomap index` lists it: no node_modules, no built output.
    const { byModule } = await resolveFixture(root, (path) => !path.startsWith('node_modules/') && !path.includes('/dist/'));
    expect(byModule).toEqual({
      ...EXPECTED,
      'apps/web/src/extra.ts': { linked: [], '@acme/ui/button': ['packages/ui/src/Button.tsx'] },
    });
  });

  test('names imported from a folder name the files defining them when its index only re-exports them', async () => {
    const { byModule } = await resolveFixture(HUBS);
    expect(byModule).toEqual({
      // JavaScript: format through `export *`, parse imported then exported, Version defined by the
      // index, Tick only in the cycle clock ↔ tock, deep through a second index, missing nowhere.
      'js/main.js': { './lib': ['js/lib/format.js', 'js/lib/parse.js', 'js/lib/index.js', 'js/lib/nested/deep.js'] },
      'js/lib/index.js': {
        './parse.js': ['js/lib/parse.js'],
        './format.js': ['js/lib/format.js'],
        './clock': ['js/lib/clock/index.js'],
        './nested': ['js/lib/nested/deep.js'],
      },
      'js/lib/nested/index.js': { './deep.js': ['js/lib/nested/deep.js'] },
      'js/lib/clock/index.js': { '../tock': ['js/lib/tock/index.js'] },
      'js/lib/tock/index.js': { '../clock': ['js/lib/clock/index.js'] },
      // TypeScript: Cart through two indexes (`export *` twice), connect defined by the index,
      // Missing nowhere, Options a type imported then exported, Ping only in the cycle ring ↔ ring2.
      'ts/app.ts': { './pkg/index.js': ['ts/pkg/models/cart.ts', 'ts/pkg/index.ts', 'ts/pkg/options.ts', 'ts/pkg/session.ts'] },
      // A namespace import takes the index itself.
      'ts/whole.ts': { './pkg': ['ts/pkg/index.ts'] },
      'ts/pkg/index.ts': {
        './session': ['ts/pkg/session.ts'],
        './options': ['ts/pkg/options.ts'],
        './models': ['ts/pkg/models/index.ts'],
        './ring': ['ts/pkg/ring/index.ts'],
      },
      'ts/pkg/models/index.ts': { './cart': ['ts/pkg/models/cart.ts'] },
      'ts/pkg/ring/index.ts': { '../ring2': ['ts/pkg/ring2/index.ts'] },
      'ts/pkg/ring2/index.ts': { '../ring': ['ts/pkg/ring/index.ts'] },
    });
  });
});
