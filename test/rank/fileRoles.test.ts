import { expect, test } from 'vitest';
import { fileRoleOf } from '../../dist/src/rank/fileRoles.js';

test('tests, by folder and by name, in every language', () => {
  for (const path of [
    'tests/test_sessions.py',
    'src/requests/test_utils.py',
    'pkg/conftest.py',
    'core/rest/handler_test.go',
    'src/test/java/com/x/FooTest.java',
    'core/src/main/java/com/x/FooTests.java',
    'src/__tests__/render.js',
    'lib/app.spec.ts',
    'lib/app.test.tsx',
    'crates/core/tests/integration.rs',
    'testdata/input.go',
  ]) {
    expect([path, fileRoleOf(path)]).toEqual([path, 'test']);
  }
});

test('examples, docs, benchmarks, generated and vendored files are auxiliary', () => {
  for (const path of [
    'examples/echo/main.go',
    'docs/conf.py',
    'benches/bench.rs',
    'vendor/x/y.go',
    'api/v1/types.pb.go',
    'types/index.d.ts',
    'dist/app.min.js',
  ]) {
    expect([path, fileRoleOf(path)]).toEqual([path, 'auxiliary']);
  }
});

test('the rest is code, even with test-like words inside a name', () => {
  for (const path of ['src/requests/sessions.py', 'core/testing_support.go', 'src/latest.rs', 'src/main/java/com/x/Contest.java', 'lib/attest.js']) {
    expect([path, fileRoleOf(path)]).toEqual([path, 'code']);
  }
});
