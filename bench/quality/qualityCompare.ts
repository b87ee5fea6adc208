import { allInTop, meanOf, reciprocalRank } from './metrics.js';
import type { IssueOutcome, IssueResults } from './qualityResults.js';

type Ranks = readonly (number | null)[];

/** The gold ranks of each variant (and BM25's, as `bm25`) of each issue a run measured, by instance. */
function ranksByInstance(results: IssueResults): Map<string, Map<string, Ranks>> {
  const byInstance = new Map<string, Map<string, Ranks>>();
  for (const issue of results.outcomes) byInstance.set(issue.instance, rankings(issue));
  return byInstance;
}

function rankings(issue: IssueOutcome): Map<string, Ranks> {
  const ranks = new Map<string, Ranks>([['bm25', issue.bm25]]);
  for (const [name, outcome] of Object.entries(issue.variants)) if (!('error' in outcome)) ranks.set(name, outcome.ranks);
  return ranks;
}

const place = (ranks: Ranks) => ranks.map((rank) => rank ?? '-').join(',');

/**
 * `--compare A B` on two runs' issue results: per variant (and BM25), over the issues both
 * measured, Acc@5 and MRR of each run, then every issue whose gold files moved.
 */
export function compareIssues(a: IssueResults, b: IssueResults): string {
  const before = ranksByInstance(a);
  const after = ranksByInstance(b);
  const names = [...new Set([...before.values(), ...after.values()].flatMap((ranks) => [...ranks.keys()]))];
  const lines = [
    '## Quality: issue sets, A → B',
    '',
    '| variant | issues | Acc@5 A | Acc@5 B | MRR A | MRR B | better | worse |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const moves: string[] = [];
  for (const name of names) {
    const pairs: { instance: string; a: Ranks; b: Ranks }[] = [];
    for (const [instance, ranks] of before) {
      const ranksA = ranks.get(name);
      const ranksB = after.get(instance)?.get(name);
      if (ranksA && ranksB) pairs.push({ instance, a: ranksA, b: ranksB });
    }
    if (pairs.length === 0) continue;
    const acc5 = (pick: (pair: (typeof pairs)[number]) => Ranks) => (100 * meanOf(pairs.map((pair) => (allInTop(pick(pair), 5) ? 1 : 0)))!).toFixed(1);
    const mrr = (pick: (pair: (typeof pairs)[number]) => Ranks) => meanOf(pairs.map((pair) => reciprocalRank(pick(pair))))!.toFixed(3);
    let better = 0;
    let worse = 0;
    for (const pair of pairs) {
      const change = reciprocalRank(pair.b) - reciprocalRank(pair.a);
      if (change > 0) better++;
      if (change < 0) worse++;
      if (place(pair.a) !== place(pair.b)) moves.push(`- ${name} ${pair.instance}: gold at ${place(pair.a)} → ${place(pair.b)}`);
    }
    lines.push(
      `| ${name} | ${pairs.length} | ${acc5((pair) => pair.a)} | ${acc5((pair) => pair.b)} | ${mrr((pair) => pair.a)} | ${mrr((pair) => pair.b)} | ${better} | ${worse} |`,
    );
  }
  const moved = moves.length > 0 ? ['', 'Issues whose gold files moved (their places in the ranking, A → B):', '', ...moves] : ['', 'No gold file moved.'];
  return `${[...lines, ...moved].join('\n')}\n`;
}
