import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { indexRepository } from '../../dist/src/index.js';
import { cliTags, indexJson, makeRepo } from '../support/cli.js';

const files = {
  'app/models.py': 'class Order:\n    def total(self):\n        return sum_lines(self)\n',
  'app/pricing.py': 'def sum_lines(order):\n    return 0\n\n\ndef discount(order):\n    return sum_lines(order)\n',
  'app/views.py': 'from app.models import Order\n\n\ndef show(order):\n    return Order.total(order)\n',
  'README.md': '# shop\n',
};

describe('incremental re-index', () => {
  const root = makeRepo(files);

  test('a cold run parses every source file and records the rest as skipped', async () => {
    const summary = await indexJson(root, ['--jobs', '2']);
    expect(summary).toMatchObject({ files: 4, parsed: 3, reused: 0, removed: 0, skipped: { 'no-grammar': 1 }, defs: 5 });
  });

  test('a warm run reuses every record', async () => {
    const summary = await indexJson(root);
    expect(summary).toMatchObject({ files: 4, parsed: 0, reused: 4, removed: 0 });
  });

  test('touching one file parses nothing: its bytes are those its record was made from', async () => {
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'app/views.py'), later, later);
    expect(await indexJson(root)).toMatchObject({ parsed: 0, reused: 4, removed: 0 });
  });

  test('an edit that keeps the mtime but changes the size is seen', async () => {
    const path = join(root, 'app/pricing.py');
    writeFileSync(path, `${files['app/pricing.py']}\n\ndef tax(order):\n    return sum_lines(order)\n`);
    const fixed = new Date('2020-01-01T00:00:00Z');
    utimesSync(path, fixed, fixed);
    expect(await indexJson(root)).toMatchObject({ parsed: 1, reused: 3, defs: 6 });
    expect(await cliTags(root)).toContain('app/pricing.py:9 def function tax');
  });

  test('deleting a file drops its record and its tags', async () => {
    rmSync(join(root, 'app/views.py'));
    expect(await indexJson(root)).toMatchObject({ files: 3, parsed: 0, reused: 3, removed: 1 });
    const tags = await cliTags(root);
    expect(tags.some((tag) => tag.startsWith('app/views.py'))).toBe(false);
    expect(tags).toContain('app/models.py:1 def class Order');
  });

  test('an added file is parsed alone', async () => {
    writeFileSync(join(root, 'app/tax.py'), 'def vat(amount):\n    return amount\n');
    expect(await indexJson(root)).toMatchObject({ files: 4, parsed: 1, reused: 3, removed: 0 });
  });
});

describe('the library announces what a run will parse', () => {
  test('once, with the number of files to parse, and not at all when nothing changed', async () => {
    const root = makeRepo(files);
    const announced: number[] = [];
    const onParseStart = (count: number) => announced.push(count);
    await indexRepository({ root, onParseStart });
    expect(announced).toEqual([3]);
    await indexRepository({ root, onParseStart });
    expect(announced).toEqual([3]);
    writeFileSync(join(root, 'app/tax.py'), 'def vat(amount):\n    return amount\n');
    await indexRepository({ root, onParseStart });
    expect(announced).toEqual([3, 1]);
  });
});
