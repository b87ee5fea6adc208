import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { buildMap } from '../../dist/src/index.js';
import { expectOneLineError, runCli } from '../support/cli.js';

/**
 * `--scope DIR` on a JS/TS monorepo: apps/web imports packages/ui and packages/core (through
 * core's re-exporting index.ts, followed to money.ts and rates.ts); apps/site imports core's
 * money.ts; nothing imports the apps.
 */
const root = mkdtempSync(join(tmpdir(), 'repomap-scope-'));
cpSync(fileURLToPath(new URL('../../fixtures/imports/ecmascript', import.meta.url)), root, { recursive: true });

async function shownFiles(...args: string[]): Promise<string[]> {
  const result = await runCli(['map', root, '-t', '4096', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((line) => /^\S.*:$/.test(line));
}

describe('a map scoped to a folder of a monorepo', () => {
  test('shows the folder’s files and the files they import, nothing else', async () => {
    expect(await shownFiles()).toEqual([
      'apps/site/src/index.js:',
      'apps/site/src/nav.js:',
      'apps/web/src/App.tsx:',
      'apps/web/src/Chart.jsx:',
      'apps/web/src/util/index.ts:',
      'packages/core/src/index.ts:',
      'packages/core/src/money.ts:',
      'packages/core/src/rates.ts:',
      'packages/ui/src/Button.tsx:',
    ]);
    expect(await shownFiles('--scope', 'apps/web')).toEqual([
      'apps/web/src/App.tsx:',
      'apps/web/src/Chart.jsx:',
      'apps/web/src/util/index.ts:',
      'packages/core/src/money.ts:',
      'packages/core/src/rates.ts:',
      'packages/ui/src/Button.tsx:',
    ]);
    expect(await shownFiles('--scope', 'apps/site')).toEqual(['apps/site/src/index.js:', 'apps/site/src/nav.js:', 'packages/core/src/money.ts:']);
  });

  test('scopes add up, a file is a scope, aider’s ranking is scoped alike, and the root is no scope', async () => {
    expect(await shownFiles('--scope', 'apps/site', '--scope', 'packages/ui')).toEqual([
      'apps/site/src/index.js:',
      'apps/site/src/nav.js:',
      'packages/core/src/money.ts:',
      'packages/ui/src/Button.tsx:',
    ]);
    expect(await shownFiles('--scope', 'apps/web/src/Chart.jsx')).toEqual(['apps/web/src/Chart.jsx:']);
    expect(await shownFiles('--scope', 'apps/site', '--ranking', 'aider')).toEqual([
      'apps/site/src/index.js:',
      'apps/site/src/nav.js:',
      'packages/core/src/money.ts:',
    ]);
    expect((await runCli(['map', root, '--scope', root])).stdout).toBe((await runCli(['map', root])).stdout);
  });

  test('the scope’s files personalize the ranking: each ranks higher than in the unscoped ranking', async () => {
    const ranks = async (scopes: string[]) => new Map((await buildMap({ root, scopes, maxTokens: 4096 })).ranked.files.map((file) => [file.path, file.rank]));
    const [plain, scoped] = [await ranks([]), await ranks(['apps/site'])];
    for (const path of ['apps/site/src/index.js', 'apps/site/src/nav.js']) expect(scoped.get(path)!).toBeGreaterThan(plain.get(path)!);
  });

  test('a scope that names nothing of the repository is one line and exit 1', async () => {
    await expectOneLineError(['map', root, '--scope', 'nowhere'], 1, "repomap: scope 'nowhere' does not exist");
  });
});
