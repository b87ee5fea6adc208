import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Real repositories the bench maps warm (issue 26: the warm map within 2.5× `node -e 0` on real
 * trees of up to 3,000 files), chosen for what slices lack: fastapi's thousands of non-source
 * files (docs in many languages), grpc-go's generated code, vue's pnpm monorepo. Each is fetched
 * once at a pinned commit into a cache folder; offline, a repository that cannot be fetched is
 * skipped with a message.
 */
export interface RealRepository {
  name: string;
  /** `owner/name` on GitHub. */
  github: string;
  commit: string;
}

export const REAL_REPOSITORIES: readonly RealRepository[] = [
  { name: 'fastapi', github: 'fastapi/fastapi', commit: 'c3f316b7e814667e8ee81e03a7330d00ee61e45c' },
  { name: 'grpc-go', github: 'grpc/grpc-go', commit: '4793ad0474669eafbd5346c8a3d098fdfa542498' },
  { name: 'vue-core', github: 'vuejs/core', commit: 'e2bede96134f757aad5c5b33ac9be055022dbfc8' },
  { name: 'gin', github: 'gin-gonic/gin', commit: 'dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9' },
  { name: 'requests', github: 'psf/requests', commit: '1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e' },
  { name: 'express', github: 'expressjs/express', commit: 'a3714473feb3d2908add734d340e7755fd85e0a3' },
];

export const REAL_CACHE = join(homedir(), '.cache', 'repomap-bench', 'real');

/**
 * The repository's work tree at its commit, fetched when absent: from `mirrors`
 * (`<mirrors>/<owner>+<name>/repo`, a clone's git folder) when given, else from GitHub. Returns
 * the tree, or why it could not be had.
 */
export function realRepository(repo: RealRepository, mirrors: string | undefined): { root: string } | { skipped: string } {
  const root = join(REAL_CACHE, repo.name);
  if (existsSync(join(root, '.git')) && headOf(root) === repo.commit) return { root };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const source = mirrors ? join(mirrors, repo.github.replace('/', '+'), 'repo') : `https://github.com/${repo.github}.git`;
  for (const args of [
    ['init', '-q'],
    ['fetch', '-q', '--depth', '1', source, repo.commit],
    ['checkout', '-q', 'FETCH_HEAD'],
  ]) {
    const run = spawnSync('git', args, { cwd: root, encoding: 'utf8', timeout: 300_000 });
    if (run.status !== 0) {
      rmSync(root, { recursive: true, force: true });
      return {
        skipped: `could not fetch ${repo.github} at ${repo.commit.slice(0, 12)} from ${source}: ${(run.stderr || run.error?.message || '').trim().split('\n').pop()}`,
      };
    }
  }
  return { root };
}

function headOf(root: string): string {
  return spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
}
