import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CliResult, runCli } from '../support/cli.js';
import { commitHistory, git } from '../support/gitRepo.js';

/**
 * A fault campaign: a repository whose `.git` folder names a program for every config key that
 * can make git run one, each program writing its own marker into a folder outside the
 * repository; `repomap index`, `map` (git signals on) and `tags` run on it must run none of
 * them, list no file outside it, and finish as usual.
 */

/** Every hook of githooks(5): shipped in `.git/hooks` and in the folder core.hooksPath names. */
const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'post-index-change',
];

/** Where the repository's config names core.fsmonitor: at most one of these is in force at a time. */
type FsmonitorSource = 'config' | 'include.path' | 'includeIf';

interface Hostile {
  root: string;
  markers: string;
}

/** Writes an executable script that leaves the marker `name` and fails; returns its path. */
function program(bin: string, markers: string, name: string): string {
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * A partial clone (trees fetched lazily, so `git log --name-only` would fetch from its promisor
 * remotes) whose HEAD carries a signature, whose index holds a forged `../` path, and whose
 * config sets every key that runs a program, its work tree pointing outside.
 */
function hostileRepository(fsmonitorFrom: FsmonitorSource): Hostile {
  const base = mkdtempSync(join(tmpdir(), 'repomap-hostile-git-'));
  const outside = join(base, 'outside');
  const markers = join(outside, 'markers');
  const bin = join(outside, 'bin');
  const hooks = join(outside, 'hooks');
  const stolenTree = join(outside, 'worktree');
  for (const folder of [markers, bin, hooks, join(stolenTree, 'deep')]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(stolenTree, 'stolen.py'), 'def stolen():\n    pass\n');
  writeFileSync(join(stolenTree, 'deep', 'stolen_deep.py'), 'def stolen_deep():\n    pass\n');
  writeFileSync(join(outside, 'secret.py'), 'def secret():\n    pass\n');

  const source = join(base, 'source');
  mkdirSync(source);
  commitHistory(source, [
    { date: 1000, files: { 'a.py': 'def a():\n    pass\n' } },
    { date: 2000, files: { 'b.py': 'def b():\n    return a()\n' } },
    { date: 3000, files: { 'c.py': 'def c():\n    return b()\n' } },
  ]);
  git(source, ['config', 'uploadpack.allowFilter', 'true']);
  git(base, ['clone', '-q', '--filter=tree:0', '--no-local', `file://${source}`, 'repo']);
  const root = join(base, 'repo');
  const gitDir = join(root, '.git');

  // HEAD becomes a commit with a PGP signature: `git log` with log.showSignature runs gpg on it.
  const head = git(root, ['cat-file', 'commit', 'HEAD']);
  const signed = head.replace(
    /^(committer .*\n)/m,
    '$1gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEAAAAAAAAAAAAAAAAAAAAAAAAAAAFAgAAAAA=\n =AAAA\n -----END PGP SIGNATURE-----\n',
  );
  writeFileSync(join(base, 'signed-commit'), signed);
  git(root, ['update-ref', 'HEAD', git(root, ['hash-object', '-t', 'commit', '-w', join(base, 'signed-commit')]).trim()]);

  // An index entry named `-./outside/secret.py`, then renamed `../outside/secret.py` in the bytes (it stays first in order).
  const blob = git(root, ['hash-object', '-w', join(outside, 'secret.py')]).trim();
  git(root, ['update-index', '--add', '--cacheinfo', `100644,${blob},-./outside/secret.py`]);
  const index = readFileSync(join(gitDir, 'index'));
  const body = index.subarray(0, index.length - 20);
  body[body.indexOf('-./outside/secret.py')] = '.'.charCodeAt(0);
  writeFileSync(join(gitDir, 'index'), Buffer.concat([body, createHash('sha1').update(body).digest()]));

  writeFileSync(join(root, '.gitattributes'), '* diff=evil filter=evil\n');
  writeFileSync(join(root, 'untracked.py'), 'def untracked():\n    return c()\n');
  for (const hook of HOOKS) {
    program(hooks, markers, `hook-${hook}`);
    writeFileSync(join(gitDir, 'hooks', hook), `#!/bin/sh\ntouch '${join(markers, `shipped-hook-${hook}`)}'\nexit 1\n`);
    chmodSync(join(gitDir, 'hooks', hook), 0o755);
  }
  const run = (name: string) => program(bin, markers, name);
  const fsmonitor = `[core]\n\tfsmonitor = ${run(`fsmonitor-from-${fsmonitorFrom}`)}\n`;
  writeFileSync(join(outside, 'included.gitconfig'), fsmonitorFrom === 'include.path' ? fsmonitor : '');
  writeFileSync(join(outside, 'included-if.gitconfig'), fsmonitorFrom === 'includeIf' ? fsmonitor : '');
  // Written last, with no git run after it: the setup's own commands must not meet it.
  writeFileSync(
    join(gitDir, 'config'),
    `${readFileSync(join(gitDir, 'config'), 'utf8')}${fsmonitorFrom === 'config' ? fsmonitor : ''}
[core]
\tpager = ${run('core-pager')}
\thooksPath = ${hooks}
\tsshCommand = ${run('ssh-command')}
\taskPass = ${run('askpass')}
\teditor = ${run('editor')}
\talternateRefsCommand = ${run('alternate-refs-command')}
\tworktree = ${stolenTree}
\tuntrackedCache = true
[sequence]
\teditor = ${run('sequence-editor')}
[pager]
\tlog = ${run('pager-log')}
\tls-files = ${run('pager-ls-files')}
\trev-parse = ${run('pager-rev-parse')}
[diff]
\texternal = ${run('diff-external')}
[diff "evil"]
\ttextconv = ${run('textconv')}
\tcommand = ${run('diff-command')}
[filter "evil"]
\tclean = ${run('filter-clean')}
\tsmudge = ${run('filter-smudge')}
\tprocess = ${run('filter-process')}
[alias]
\tls = !${run('alias')}
[log]
\tshowSignature = true
[gpg]
\tprogram = ${run('gpg')}
[gpg "openpgp"]
\tprogram = ${run('gpg-openpgp')}
[credential]
\thelper = !${run('credential-helper')}
[url "ssh://example.invalid/"]
\tinsteadOf = file://
[remote "origin"]
\tuploadpack = ${run('origin-upload-pack')}
[remote "mirror"]
\turl = ${source}
\tpromisor = true
\tuploadpack = ${run('mirror-upload-pack')}
[remote "helper"]
\turl = ext::${run('ext-transport')}
\tpromisor = true
[protocol "ssh"]
\tallow = always
[protocol "file"]
\tallow = always
[protocol "ext"]
\tallow = always
[include]
\tpath = ${join(outside, 'included.gitconfig')}
[includeIf "gitdir:${gitDir}"]
\tpath = ${join(outside, 'included-if.gitconfig')}
`,
  );
  rmSync(markers, { recursive: true });
  mkdirSync(markers);
  return { root, markers };
}

/** Exit 0, no marker left, nothing outside named, at most one line (the index summary) on stderr. */
function expectHarmless(result: CliResult, hostile: Hostile): void {
  expect(readdirSync(hostile.markers)).toEqual([]);
  expect(result.code).toBe(0);
  expect(result.stdout).not.toMatch(/stolen|secret/);
  expect(result.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(1);
}

describe.each<FsmonitorSource>(['config', 'include.path', 'includeIf'])('a .git naming a program for every key (core.fsmonitor in %s)', (fsmonitorFrom) => {
  const hostile = hostileRepository(fsmonitorFrom);

  test('repomap index runs none of them and indexes the repository own files only', async () => {
    const result = await runCli(['index', hostile.root, '--json']);
    expectHarmless(result, hostile);
    expect(JSON.parse(result.stdout)).toMatchObject({ files: 5, parsed: 4, skippedFiles: [{ path: '.gitattributes', reason: 'no-grammar' }] });
  });

  test('repomap map, with its git signals, runs none of them', async () => {
    const result = await runCli(['map', hostile.root, '--git-signals']);
    expectHarmless(result, hostile);
    expect(result.stdout).toContain('untracked.py');
  });

  test('repomap tags runs none of them and tags the repository own files only', async () => {
    const result = await runCli(['tags', hostile.root]);
    expectHarmless(result, hostile);
    const files = new Set(
      result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { rel_fname: string }).rel_fname),
    );
    expect([...files].sort()).toEqual(['a.py', 'b.py', 'c.py', 'untracked.py']);
  });
});

describe('git variables inherited from the caller (a hook running repomap) redirect nothing', () => {
  test('GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE of another repository are not used', async () => {
    const base = mkdtempSync(join(tmpdir(), 'repomap-git-env-'));
    const other = join(base, 'other');
    const root = join(base, 'repo');
    mkdirSync(other);
    mkdirSync(root);
    commitHistory(other, [{ date: 1000, files: { 'other.py': 'def other():\n    pass\n' } }]);
    commitHistory(root, [{ date: 1000, files: { 'mine.py': 'def mine():\n    pass\n' } }]);
    writeFileSync(join(root, 'other.py'), 'def decoy():\n    pass\n');
    writeFileSync(join(root, '.gitignore'), 'other.py\n');
    const env = { GIT_DIR: join(other, '.git'), GIT_WORK_TREE: other, GIT_INDEX_FILE: join(other, '.git', 'index') };
    const result = await runCli(['tags', root], { env });
    expect(result.code).toBe(0);
    const tags = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { rel_fname: string; kind: string; name: string });
    expect(tags.filter((tag) => tag.kind === 'def').map((tag) => `${tag.rel_fname}:${tag.name}`)).toEqual(['mine.py:mine']);
  });
});
