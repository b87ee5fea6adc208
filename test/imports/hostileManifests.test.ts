import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { makeRepo, runCliWithin } from '../support/cli.js';

/** Past it, a map is waiting on something it should never have opened. */
const DEADLINE_MS = 60_000;

/** The manifests the import resolvers look for by name, listed or not (oxc-resolver reads the rest itself). */
const MANIFESTS = ['package.json', 'lerna.json', 'pnpm-workspace.yaml', 'go.mod'];

const FILES = {
  'a.ts': "import b from './b';\nexport function a() {\n  return b;\n}\n",
  'b.ts': 'export default 1;\n',
  'm.go': 'package main\n\nfunc main() {}\n',
};

const mapOf = (root: string) => runCliWithin(['map', root, '--cache-dir', mkdtempSync(join(tmpdir(), 'repomap-cache-'))], DEADLINE_MS);

describe('a manifest that is a FIFO', () => {
  let plain = '';
  beforeAll(async () => {
    plain = (await mapOf(makeRepo(FILES))).stdout;
    expect(plain).toContain('a.ts');
  });

  test.each(MANIFESTS)('named %s: is not waited on, and the map is made as without it', async (manifest) => {
    const root = makeRepo(FILES);
    expect(spawnSync('mkfifo', [join(root, manifest)]).status).toBe(0);
    expect(await mapOf(root)).toMatchObject({ code: 0, hung: false, stdout: plain });
  });
});
