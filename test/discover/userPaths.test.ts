import { cpSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildMap, RepoPathError } from '../../dist/src/index.js';
import { expectOneLineError, runCli } from '../support/cli.js';

/**
 * The rule for a path the user gives (--chat-file, --mention-file, an anchor's FILE): absolute as
 * is; relative, against the working folder, then against the root; outside the root, or no file
 * of the repository, an error (a warning with --missing-files warn). On the chatFile fixture: with
 * src/billing.ts in the chat, the map at 100 tokens turns from customers to invoicing.
 *
 *   base/repo/            the root (a walk: no .git), src/*.ts, src/link.ts → base/elsewhere/elsewhere.ts,
 *                         generated/gen.ts (ignored by .gitignore)
 *   base/elsewhere/       a working folder outside the root, holding elsewhere.ts
 */
const FIXTURE = fileURLToPath(new URL('../../fixtures/map/chatFile', import.meta.url));
// Real: errors name the root as its real path.
const base = realpathSync(mkdtempSync(join(tmpdir(), 'repomap-paths-')));
const root = join(base, 'repo');
const outside = join(base, 'elsewhere');
const subfolder = join(root, 'src');
cpSync(FIXTURE, root, { recursive: true });
mkdirSync(outside);
writeFileSync(join(outside, 'elsewhere.ts'), 'export const elsewhere = 1;\n');
symlinkSync(join(outside, 'elsewhere.ts'), join(root, 'src/link.ts'));
mkdirSync(join(root, 'generated'));
writeFileSync(join(root, 'generated/gen.ts'), 'export const generated = 1;\n');
writeFileSync(join(root, '.gitignore'), 'generated/\n');

async function mapText(args: string[], cwd: string): Promise<string> {
  const result = await runCli(['map', root, '-t', '100', ...args], { cwd });
  if (result.code !== 0) throw new Error(`repomap map failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

const WHERE = [
  ['the root', root],
  ['a folder below the root', subfolder],
  ['a folder outside the root', outside],
] as const;

describe('paths the user gives', () => {
  let plain: string;
  let personalized: string;
  beforeAll(async () => {
    plain = await mapText([], root);
    personalized = await mapText(['-c', 'src/billing.ts'], root);
  });

  test('the chat file changes the map (the baseline of what follows)', () => {
    expect(personalized).not.toBe(plain);
    expect(personalized).toContain('│export function invoiceTotal(invoice: Invoice): number {');
    expect(plain).toContain('│export interface Customer {');
  });

  test.each(WHERE)('an absolute path, from %s', async (_, cwd) => {
    expect(await mapText(['-c', join(root, 'src/billing.ts')], cwd)).toBe(personalized);
  });

  test('a path relative to the working folder', async () => {
    expect(await mapText(['-c', 'billing.ts'], subfolder)).toBe(personalized);
    expect(await mapText(['-c', '../repo/src/billing.ts'], outside)).toBe(personalized);
  });

  test.each(WHERE)('a path relative to the root, from %s: the map is personalized as from the root', async (_, cwd) => {
    expect(await mapText(['-c', 'src/billing.ts'], cwd)).toBe(personalized);
  });

  test.each(WHERE)('a --mention-file and an --anchor FILE relative to the root, from %s', async (_, cwd) => {
    expect(await mapText(['-m', 'src/billing.ts'], cwd)).toBe(await mapText(['-m', join(root, 'src/billing.ts')], root));
    const anchors = ['-a', 'src/money.ts', '-a', 'src/invoices.ts:invoiceTotal'];
    const anchored = await mapText(anchors, cwd);
    expect(anchored).toBe(await mapText(['-a', join(root, 'src/money.ts'), '-a', `${join(root, 'src/invoices.ts')}:invoiceTotal`], root));
    expect(anchored).toContain('\nsrc/money.ts');
    expect(anchored).toContain('│export function invoiceTotal(invoice: Invoice): number {');
    expect(anchored).not.toBe(plain);
  });

  test.each([
    ['the root', root, '../elsewhere/elsewhere.ts'],
    ['a folder below the root', subfolder, '../../elsewhere/elsewhere.ts'],
    ['a folder outside the root', outside, '../elsewhere/elsewhere.ts'],
  ])('`..` out of the root, from %s, is an error', (_, cwd, given) =>
    expectOneLineError(['map', root, '-c', given], 1, `repomap: chat file '${given}' is outside the repository ${root}`, { cwd }),
  );

  test.each(WHERE)('a symlink inside the root whose target is outside it, from %s, is an error', (_, cwd) =>
    expectOneLineError(
      ['map', root, '-c', 'src/link.ts'],
      1,
      `repomap: chat file 'src/link.ts' is outside the repository ${root} (it leads to ${join(outside, 'elsewhere.ts')})`,
      { cwd },
    ),
  );

  test.each(WHERE)('a file that exists but is ignored, from %s, is an error', (_, cwd) =>
    expectOneLineError(
      ['map', root, '-m', 'generated/gen.ts'],
      1,
      "repomap: mentioned file 'generated/gen.ts' is not a file of the repository (ignored, or not a regular file)",
      {
        cwd,
      },
    ),
  );

  test('a missing file is an error naming where it was looked for', async () => {
    await expectOneLineError(['map', root, '-c', 'src/nope.ts'], 1, `repomap: chat file 'src/nope.ts' does not exist in ${root}`, { cwd: root });
    await expectOneLineError(['map', root, '-c', 'src/nope.ts'], 1, `repomap: chat file 'src/nope.ts' does not exist in ${outside} or ${root}`, {
      cwd: outside,
    });
    await expectOneLineError(['map', root, '-c', join(root, 'src/nope.ts')], 1, `repomap: chat file '${join(root, 'src/nope.ts')}' does not exist`, {
      cwd: outside,
    });
  });

  test('with --missing-files warn, each is named in a warning and ignored', async () => {
    const result = await runCli(
      [
        'map',
        root,
        '-t',
        '100',
        '--missing-files',
        'warn',
        '-c',
        'src/nope.ts',
        '-c',
        '../elsewhere/elsewhere.ts',
        '-m',
        'generated/gen.ts',
        '-c',
        'src/billing.ts',
      ],
      { cwd: root },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(personalized);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `repomap: warning: chat file 'src/nope.ts' does not exist in ${root}; ignored`,
      `repomap: warning: chat file '../elsewhere/elsewhere.ts' is outside the repository ${root}; ignored`,
      "repomap: warning: mentioned file 'generated/gen.ts' is not a file of the repository (ignored, or not a regular file); ignored",
    ]);
  });

  test('an anchor whose FILE part names no file of the repository is read as an identifier', () =>
    expectOneLineError(['map', root, '-a', '../elsewhere/elsewhere.ts'], 1, 'repomap: anchor ../elsewhere/elsewhere.ts: no such file, and no file defines it', {
      cwd: root,
    }));

  test('the library takes the working folder as `cwd`', async () => {
    const map = await buildMap({ root, maxTokens: 100, cwd: outside, chatFiles: ['src/billing.ts'] });
    expect(map.text).toBe(personalized);
    const error: unknown = await buildMap({ root, maxTokens: 100, cwd: root, chatFiles: ['../elsewhere/elsewhere.ts'] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RepoPathError);
    expect((error as RepoPathError).path).toBe('../elsewhere/elsewhere.ts');
    expect((error as RepoPathError).exitCode).toBe(1);
    const warnings: string[] = [];
    const warned = await buildMap({
      root,
      maxTokens: 100,
      cwd: outside,
      chatFiles: ['src/nope.ts'],
      missingFiles: 'warn',
      onWarning: (message) => warnings.push(message),
    });
    expect(warned.text).toBe(plain);
    expect(warnings).toEqual([`chat file 'src/nope.ts' does not exist in ${outside} or ${root}; ignored`]);
  });
});
