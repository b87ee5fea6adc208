import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { decodeImportTargets, encodeImportTargets } from '../../dist/src/derived/importTargetsCodec.js';
import { withRepoView } from '../../dist/src/navigate/repoView.js';
import { StageTimer } from '../../dist/src/stageTimer.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/python', import.meta.url));

describe('import targets', () => {
  const paths = ['a.py', 'b.py', 'c.py'];
  const targets = [[['b.py', 'c.py'], []], [], [['a.py']]];

  test('come back from their bytes whole', () => {
    expect(decodeImportTargets(encodeImportTargets(targets, paths), paths)).toEqual(targets);
    expect(decodeImportTargets(encodeImportTargets([], []), [])).toEqual([]);
  });

  test('bytes that are not targets of these files decode to null', () => {
    const bytes = encodeImportTargets(targets, paths);
    expect(decodeImportTargets(bytes, ['a.py', 'b.py'])).toBeNull();
    expect(decodeImportTargets(bytes.subarray(0, bytes.length - 4), paths)).toBeNull();
    expect(decodeImportTargets(new Uint8Array(3), paths)).toBeNull();
    const wrongOffset = new Int32Array(bytes.slice().buffer);
    wrongOffset[2] = 1 << 30;
    expect(decodeImportTargets(new Uint8Array(wrongOffset.buffer), paths)).toBeNull();
  });

  test('are stored with the tables: a second view reads them and resolves nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repomap-targets-'));
    cpSync(FIXTURE, root, { recursive: true });
    const view = async () => {
      const timer = new StageTimer();
      const found = await withRepoView({ root, timer }, async (repo) => {
        const all = await repo.importTargets();
        return all[repo.paths.indexOf('src/shop/cart.py')];
      });
      return { found, stages: timer.report() };
    };
    const first = await view();
    expect(first.found).toEqual([[], ['src/shop/pricing/__init__.py', 'src/shop/pricing/rules.py']]);
    expect(first.stages).toContain('resolve imports');
    const second = await view();
    expect(second.found).toEqual(first.found);
    expect(second.stages).not.toContain('resolve imports');
  });
});
