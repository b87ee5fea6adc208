import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveImports } from '../../dist/src/imports/resolveImports.js';
import { importingFiles, resolveFixture, targetsByFile } from '../support/importTargets.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/go', import.meta.url));

describe('Go import resolution', () => {
  test('import paths name the non-test files of a package folder, through the longest module path', async () => {
    const { targets, resolved } = await resolveFixture(FIXTURE);
    expect(targets).toEqual({
      'cmd/shop/main.go': {
        fmt: [],
        // internal/kit/go.mod's `example.com/shop/kit` is longer than the root's `example.com/shop`: kit/log is a decoy.
        'example.com/shop/kit/log': ['internal/kit/log/log.go'],
        'example.com/shop/store': ['store/count.go', 'store/store.go'],
        'github.com/google/uuid': ['vendor/github.com/google/uuid/uuid.go'],
        'github.com/pkg/errors': [],
        'example.com/shop/missing': [],
      },
      // `module std` claims the paths without a dot; fmt has no folder here.
      'goroot/slices/slices.go': { fmt: [], sort: ['goroot/sort/sort.go'] },
      // The nested module has no vendor folder of its own: the root module's is not its.
      'internal/kit/log/log.go': { 'github.com/google/uuid': [] },
      'store/store.go': { 'example.com/shop': ['shop.go'] },
      'store/store_test.go': { testing: [] },
    });
    expect(resolved.counts.go).toEqual({ entries: 11, resolved: 5 });
  });

  test('go.mod files left out of the index are found on disk, above the Go files', async () => {
    const { targets } = await resolveFixture(FIXTURE);
    const withoutManifests = importingFiles(FIXTURE).filter((file) => !file.path.endsWith('go.mod'));
    expect(targetsByFile(withoutManifests, await resolveImports(FIXTURE, withoutManifests))).toEqual(targets);
  });
});
