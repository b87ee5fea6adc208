import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { decodeImportTargets, encodeImportTargets, type ImportTargets } from '../../dist/src/derived/importTargetsCodec.js';
import { withRepoView } from '../../dist/src/navigate/repoView.js';
import { StageTimer } from '../../dist/src/stageTimer.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/python', import.meta.url));

describe('import targets', () => {
  const paths = ['a.py', 'b.py', 'c.py'];
  const targets = [[['b.py', 'c.py'], []], [], [['a.py']]];

  const entriesOf = (stored: ImportTargets | null) => (stored ? Array.from({ length: stored.fileCount }, (_, fileId) => stored.of(fileId)) : null);

  test('come back from their bytes whole', () => {
    expect(entriesOf(decodeImportTargets(encodeImportTargets(targets, paths), paths))).toEqual(targets);
    expect(entriesOf(decodeImportTargets(encodeImportTargets([], []), []))).toEqual([]);
  });

  test('a file id out of range has no entries', () => {
    const stored = decodeImportTargets(encodeImportTargets(targets, paths), paths)!;
    expect([stored.of(-1), stored.of(3), stored.of(Number.NaN)]).toEqual([[], [], []]);
  });

  test('bytes that are not targets of these files decode to null', () => {
    const bytes = encodeImportTargets(targets, paths);
    expect(decodeImportTargets(bytes, ['a.py', 'b.py'])).toBeNull();
    expect(decodeImportTargets(bytes.subarray(0, bytes.length - 4), paths)).toBeNull();
    expect(decodeImportTargets(new Uint8Array(3), paths)).toBeNull();
    const wrongOffset = new Int32Array(bytes.slice().buffer);
    wrongOffset[2] = 1 << 30;
    expect(decodeImportTargets(new Uint8Array(wrongOffset.buffer), paths)).toBeNull();
    // A target that is no file of these: the last int is the last target's file id.
    const foreignTarget = new Int32Array(bytes.slice().buffer);
    foreignTarget[foreignTarget.length - 1] = 3;
    expect(decodeImportTargets(new Uint8Array(foreignTarget.buffer), paths)).toBeNull();
  });

  test('are stored with the tables: a second view reads them and resolves nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repomap-targets-'));
    cpSync(FIXTURE, root, { recursive: true });
    const view = async () => {
      const timer = new StageTimer();
      const found = await withRepoView({ root, timer }, async (repo) => {
        const all = await repo.importTargets();
        return all.of(repo.paths.indexOf('src/shop/cart.py'));
      });
      return { found, stages: timer.report() };
    };
    const first = await view();
    expect(first.found).toEqual([[], ['src/shop/pricing/__init__.py', 'src/shop/pricing/rules.py']]);
    expect(first.stages).toContain('resolve imports');
    const second = await view();
    expect(second.found).toEqual(first.found);
    expect(second.stages).not.toContain('resolve imports');
    // An edit that leaves every import as it was: the tables are patched and the targets kept, not resolved again.
    appendFileSync(join(root, 'src/shop/cart.py'), '\n# an edit that imports nothing\n');
    const patched = await view();
    expect(patched.stages).toContain('patch tables');
    expect(patched.stages).not.toContain('resolve imports');
    expect(patched.found).toEqual(first.found);
  });
});
