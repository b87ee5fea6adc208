import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageOf } from '../../src/discover/languages.js';
import { type MapRequest, openRepoMap } from '../../src/index.js';
import { filePaths, identifierNames } from '../../src/rank/tableLookups.js';
import { bm25Ranking, bm25Terms, isTestFile } from './bm25.js';
import { ISSUE_SETS, type Issue, issueTree, readIssueSet, selectIssues, withMirrors } from './issueSets.js';
import type { Vocabulary } from './mentions.js';
import { goldRanks } from './metrics.js';
import { ISSUE_BUDGETS, type IssueOutcome, type IssueResults } from './qualityResults.js';
import type { Variant } from './variants.js';

export interface IssueRunOptions {
  dataDir: string;
  mirrorsDir: string;
  /** Trees and tag stores live under it, kept between runs. */
  scratchDir: string;
  /** Issues per language; null: all. */
  limit: number | null;
  repos: readonly string[] | null;
  variants: readonly Variant[];
  progress: (message: string) => void;
}

/** Every selected issue: its tree indexed once, BM25's ranking, then each variant's ranking and maps. */
export async function runIssues(options: IssueRunOptions): Promise<IssueResults> {
  const started = performance.now();
  const skipped: string[] = [];
  const all = ISSUE_SETS.flatMap((set) => readIssueSet(options.dataDir, set, skipped));
  const { issues, mirrors } = withMirrors(selectIssues(all, options.limit, options.repos), options.mirrorsDir, skipped);
  const outcomes: IssueOutcome[] = [];
  // repomap makes a cache folder, not its parents.
  mkdirSync(join(options.scratchDir, 'stores'), { recursive: true });
  for (const issue of issues) {
    const tree = issueTree(issue, mirrors.get(issue.repo)!, join(options.scratchDir, 'trees'));
    const history = { gitDir: mirrors.get(issue.repo)!, commit: issue.baseCommit };
    const outcome = await measureIssue(issue, tree, history, join(options.scratchDir, 'stores', issue.instance), options.variants);
    outcomes.push(outcome);
    options.progress(`${issue.instance}: ${summary(outcome)}`);
  }
  return { outcomes, skipped, seconds: (performance.now() - started) / 1000 };
}

/**
 * `history`: the mirror at the issue's base commit, where the git signals read the history (the
 * tree, an export, holds no `.git`, so its files are found as before): git log from the base
 * commit walks only commits at or before it, never the fix.
 */
async function measureIssue(
  issue: Issue,
  tree: string,
  history: NonNullable<MapRequest['historySource']>,
  cacheDir: string,
  variants: readonly Variant[],
): Promise<IssueOutcome> {
  const mapper = await openRepoMap({ root: tree, cacheDir });
  try {
    const indexStarted = performance.now();
    const tables = await mapper.identifierTables();
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const vocabulary: Vocabulary = { paths: filePaths(tables), identifiers: new Set(identifierNames(tables)) };
    const bm25 = goldRanks(bm25FileRanking(tree, vocabulary.paths, issue.text), issue.gold);
    const outcome: IssueOutcome = { ...issueKey(issue), indexSeconds, bm25, variants: {} };
    const chatFile = chatFileOf(issue.gold, bm25);
    for (const variant of variants) {
      if (variant.chatOnGold && chatFile === null) continue;
      const chat = variant.chatOnGold ? { chatFile: chatFile! } : {};
      const scored = issue.gold.filter((path) => path !== chat.chatFile);
      const variantStarted = performance.now();
      try {
        const request: MapRequest = { ...variant.request({ text: issue.text, ...vocabulary }), historySource: history };
        if (chat.chatFile) request.chatFiles = [chat.chatFile];
        let ranks: (number | null)[] = [];
        const named: Record<string, boolean[]> = {};
        for (const budget of ISSUE_BUDGETS) {
          const map = await mapper.map({ ...request, maxTokens: budget, cwd: tree });
          if (budget === ISSUE_BUDGETS[0])
            ranks = goldRanks(
              map.ranked.files.map((file) => file.path),
              scored,
            );
          const shown = new Set(map.shown.map((entry) => entry.path));
          named[budget] = scored.map((path) => shown.has(path));
        }
        outcome.variants[variant.name] = { ranks, named, seconds: (performance.now() - variantStarted) / 1000, ...chat };
      } catch (error) {
        outcome.variants[variant.name] = { error: error instanceof Error ? error.message : String(error) };
      }
    }
    return outcome;
  } finally {
    await mapper.close();
  }
}

/**
 * For a fix that edits several files, the chat file of the `chatOnGold` variants: the one BM25
 * places best (the first listed on a tie), as the file an agent would open first. Null for a
 * fix of one file.
 */
export function chatFileOf(gold: readonly string[], bm25: readonly (number | null)[]): string | null {
  if (gold.length < 2) return null;
  let best = 0;
  for (let i = 1; i < gold.length; i++) if ((bm25[i] ?? Infinity) < (bm25[best] ?? Infinity)) best = i;
  return gold[best]!;
}

function issueKey({ set, instance, repo, language, gold }: Issue) {
  return { set, instance, repo, language, gold };
}

/** BM25 over the contents of the indexed files that are not tests, the issue's text as the query. */
export function bm25FileRanking(root: string, paths: readonly string[], text: string): string[] {
  const documents = paths
    .filter((path) => languageOf(path) !== null && !isTestFile(path))
    .map((path) => ({ path, terms: bm25Terms(readText(join(root, path))) }));
  return bm25Ranking(documents, bm25Terms(text)).map((file) => file.path);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function summary(outcome: IssueOutcome): string {
  const place = (ranks: readonly (number | null)[]) => ranks.map((rank) => rank ?? '-').join(',');
  const parts = [`bm25 ${place(outcome.bm25)}`];
  for (const [name, result] of Object.entries(outcome.variants)) parts.push('error' in result ? `${name} error` : `${name} ${place(result.ranks)}`);
  return `gold at ${parts.join('; ')} (index ${outcome.indexSeconds.toFixed(1)} s)`;
}
