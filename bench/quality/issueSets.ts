import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { languageOf } from '../../src/discover/languages.js';

/** The real issues with the files their fix edited (../shared/quality/README.md), and their trees. */

export const ISSUE_SETS = ['multi-dev', 'verified-dev'] as const;

export interface Issue {
  set: string;
  instance: string;
  repo: string;
  language: string;
  baseCommit: string;
  text: string;
  /** The fix's files in the languages the map indexes: only these are scored. */
  gold: string[];
}

interface IssueLine {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string[];
  language?: string;
}

/** Why a set, or some of its issues, are not measured: one line each. */
export type Skips = string[];

export function readIssueSet(dataDir: string, set: string, skips: Skips): Issue[] {
  const file = join(dataDir, `${set}.jsonl.gz`);
  if (!existsSync(file)) {
    skips.push(`${set}: no ${file}`);
    return [];
  }
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  const issues: Issue[] = [];
  let noCode = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as IssueLine;
    const gold = parsed.gold_files.filter((path) => languageOf(path) !== null);
    if (gold.length === 0) {
      noCode++;
      continue;
    }
    issues.push({
      set,
      instance: parsed.instance_id,
      repo: parsed.repo,
      language: parsed.language ?? 'python',
      baseCommit: parsed.base_commit,
      text: parsed.problem_statement,
      gold,
    });
  }
  if (noCode > 0) skips.push(`${set}: ${noCode} issue(s) whose fix edits no file in an indexed language`);
  return issues;
}

/** The bare mirror of each repository (`<owner>+<name>/repo`, matched in any case); issues of repositories with none are dropped, counted per repository. */
export function withMirrors(issues: readonly Issue[], mirrorsDir: string, skips: Skips): { issues: Issue[]; mirrors: Map<string, string> } {
  const folders = existsSync(mirrorsDir) ? readdirSync(mirrorsDir) : [];
  const byLowerName = new Map(folders.map((folder) => [folder.toLowerCase(), join(mirrorsDir, folder, 'repo')]));
  const mirrors = new Map<string, string>();
  const missing = new Map<string, number>();
  const kept: Issue[] = [];
  for (const issue of issues) {
    const mirror = byLowerName.get(issue.repo.replace('/', '+').toLowerCase());
    if (mirror && existsSync(mirror)) {
      mirrors.set(issue.repo, mirror);
      kept.push(issue);
    } else {
      missing.set(issue.repo, (missing.get(issue.repo) ?? 0) + 1);
    }
  }
  for (const [repo, count] of missing) skips.push(`${repo}: ${count} issue(s) skipped, no mirror in ${mirrorsDir}`);
  return { issues: kept, mirrors };
}

/** The first `limit` issues of each language, of the repositories asked for (`owner/name` or `name`). */
export function selectIssues(issues: readonly Issue[], limit: number | null, repos: readonly string[] | null): Issue[] {
  const perLanguage = new Map<string, number>();
  return issues.filter((issue) => {
    if (repos && !repos.some((repo) => repo.toLowerCase() === issue.repo.toLowerCase() || repo.toLowerCase() === issue.repo.split('/')[1]!.toLowerCase())) {
      return false;
    }
    const taken = perLanguage.get(issue.language) ?? 0;
    if (limit !== null && taken >= limit) return false;
    perLanguage.set(issue.language, taken + 1);
    return true;
  });
}

/**
 * The issue's tree at its base commit, written once (`git archive`, then `tar -x`) and reused. A
 * mirror may lack its largest blobs (data files, never code here): those files are left out.
 */
export function issueTree(issue: Issue, mirror: string, treesDir: string): string {
  const tree = join(treesDir, issue.instance);
  if (existsSync(tree)) return tree;
  const partial = `${tree}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const excludes = missingBlobPaths(mirror, issue.baseCommit).map((path) => `:(exclude,literal)${path}`);
  const archive = `${partial}.tar`;
  // git reads the excluded files' entries still, and says their blobs are missing on stderr: kept quiet, and in the error when it fails.
  execFileSync('git', ['-C', mirror, 'archive', '--output', archive, issue.baseCommit, '--', '.', ...excludes], { stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync('tar', ['-xf', archive, '-C', partial], { stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(archive);
  renameSync(partial, tree);
  return tree;
}

/** The files of a commit whose blobs the mirror does not hold. */
function missingBlobPaths(mirror: string, commit: string): string[] {
  const git = (args: string[], input?: string) => execFileSync('git', ['-C', mirror, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  const blobs = git(['ls-tree', '-r', '-z', commit])
    .split('\0')
    .flatMap((entry) => {
      const match = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      return match ? [{ oid: match[1]!, path: match[2]! }] : [];
    });
  const missing = new Set(
    git(['cat-file', '--batch-check'], blobs.map((blob) => `${blob.oid}\n`).join(''))
      .split('\n')
      .filter((line) => line.endsWith(' missing'))
      .map((line) => line.slice(0, line.indexOf(' '))),
  );
  return blobs.filter((blob) => missing.has(blob.oid)).map((blob) => blob.path);
}
