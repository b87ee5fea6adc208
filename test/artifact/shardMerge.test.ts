import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { CLI, cliTags, expectOneLineError, runCli } from '../support/cli.js';

/** A sharded index (`index --shard K/N --export`, then `merge`) is the single machine's index. */
const POLYGLOT = fileURLToPath(new URL('../../fixtures/languages/polyglot', import.meta.url));
const WORKFLOW = fileURLToPath(new URL('../../examples/nightly-index.yml', import.meta.url));

const scratch = (name: string) => mkdtempSync(join(tmpdir(), `repomap-${name}-`));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
}

/** The fixture as a repository, and a fresh clone of it per machine. */
let origin: string;
const clone = (name: string): string => {
  const path = join(scratch(name), 'checkout');
  git(tmpdir(), 'clone', '-q', origin, path);
  return path;
};

/** What a single machine's index gives: its tags and its map. */
let single: { tags: string[]; map: string };

beforeAll(async () => {
  origin = scratch('shard-origin');
  cpSync(POLYGLOT, origin, { recursive: true });
  git(origin, 'init', '-q');
  git(origin, 'add', '.');
  git(origin, 'commit', '-q', '-m', 'polyglot');
  const machine = clone('single');
  expect((await runCli(['index', machine])).code).toBe(0);
  single = { tags: await cliTags(machine), map: (await runCli(['map', machine])).stdout };
});

async function ok(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<void> {
  const result = await runCli(args, options);
  expect(result.code, result.stderr).toBe(0);
}

/** Imports `artifact` into a fresh clone and checks that its next map parses nothing and is the single machine's. */
async function expectSingleMachineIndex(artifact: string): Promise<void> {
  const consumer = clone('consumer');
  const imported = await runCli(['import', artifact, consumer, '--json']);
  expect(imported.code, imported.stderr).toBe(0);
  expect(JSON.parse(imported.stdout)).toMatchObject({ changed: 0, absent: 0, missing: 0, derived: true });
  const map = await runCli(['map', consumer, '--verbose']);
  expect(map.stderr).not.toMatch(/\bparse \d/);
  expect(map.stdout).toBe(single.map);
  expect(await cliTags(consumer)).toEqual(single.tags);
}

describe('sharded, then merged: the single machine’s index, tags and map byte for byte', () => {
  test.each([1, 3, 4])('N = %i', async (parts) => {
    const partsDir = scratch('parts');
    for (let part = 1; part <= parts; part++) {
      await ok(['index', clone(`part-${part}`), '--shard', `${part}/${parts}`, '--export', join(partsDir, `part-${part}.rmi`)]);
    }
    const merged = join(partsDir, 'merged.rmi');
    const merge = await runCli([
      'merge',
      ...Array.from({ length: parts }, (_, index) => join(partsDir, `part-${index + 1}.rmi`)),
      '-o',
      merged,
      '--root',
      clone('merge'),
      '--json',
    ]);
    expect(merge.code, merge.stderr).toBe(0);
    // Every file came from a part: the merge parsed none.
    expect(JSON.parse(merge.stdout)).toMatchObject({ imported: { changed: 0, absent: 0, missing: 0 }, exported: { index: { parsed: 0 } } });
    await expectSingleMachineIndex(merged);
  });
});

describe('the sample GitHub Actions workflow (examples/nightly-index.yml), its repomap steps run here', () => {
  test('each part on a clone of its own, the merge on another: an artifact that maps as the single machine', async () => {
    const workflow = readFileSync(WORKFLOW, 'utf8');
    const steps = (job: string) => {
      const body = workflow.split(/\n {2}(?=\w[\w-]*:\n)/).find((chunk) => chunk.startsWith(`${job}:`))!;
      return [...body.matchAll(/- run: (repomap .*)/g)].map((match) => match[1]!);
    };
    const matrix = /part: \[([\d, ]+)\]/.exec(workflow)![1]!.split(',').map(Number);
    expect(steps('part')).toHaveLength(1);
    expect(steps('merge')).toHaveLength(1);
    // The runner: `repomap` on the PATH, RUNNER_TEMP shared between jobs as the artifact actions share files.
    const bin = scratch('bin');
    writeFileSync(join(bin, 'repomap'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'repomap'), 0o755);
    const runnerTemp = scratch('runner-temp');
    mkdirSync(join(runnerTemp, 'parts'));
    const env = { PATH: `${bin}:${process.env.PATH}`, RUNNER_TEMP: runnerTemp };
    const run = (command: string, cwd: string) => execFileSync('/bin/sh', ['-c', command], { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
    // GitHub's expression for the matrix value, as the workflow writes it.
    const matrixPart = ['$', '{{ matrix.part }}'].join('');
    for (const part of matrix) {
      run(steps('part')[0]!.replaceAll(matrixPart, String(part)), clone(`workflow-part-${part}`));
      // actions/download-artifact with merge-multiple: every part's file in one folder.
      cpSync(join(runnerTemp, `repomap-part-${part}.rmi`), join(runnerTemp, 'parts', `repomap-part-${part}.rmi`));
    }
    run(steps('merge')[0]!, clone('workflow-merge'));
    await expectSingleMachineIndex(join(runnerTemp, 'repomap-index.rmi'));
  });
});

describe('a merge refuses what is no sharded index', () => {
  test('two parts holding the same file', async () => {
    const partsDir = scratch('overlap');
    await ok(['index', clone('overlap-a'), '--shard', '1/2', '--export', join(partsDir, 'a.rmi')]);
    await ok(['index', clone('overlap-b'), '--shard', '1/2', '--export', join(partsDir, 'b.rmi')]);
    await expectOneLineError(
      ['merge', join(partsDir, 'a.rmi'), join(partsDir, 'b.rmi'), '-o', join(partsDir, 'merged.rmi'), '--root', clone('overlap-merge')],
      1,
      /^repomap: .*a\.rmi and .*b\.rmi both hold a record of \S+: they are not parts of one index$/,
    );
  });

  test('no --output, and a shard that is no part', async () => {
    await expectOneLineError(['merge', 'part.rmi'], 1, "repomap: merge needs --output FILE, the artifact to write (see 'repomap merge --help')");
    await expectOneLineError(['index', origin, '--shard', '3/2'], 1, "repomap: --shard must be K/N with 1 <= K <= N <= 1024, not '3/2'");
  });
});
