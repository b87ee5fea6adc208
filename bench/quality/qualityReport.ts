import { allInTop, meanOf, reciprocalRank } from './metrics.js';
import {
  type ChatFileOutcome,
  ISSUE_BUDGETS,
  type IssueOutcome,
  type IssueResults,
  type QualityResults,
  SLICE_BUDGETS,
  type SliceOutcome,
  type SliceResults,
} from './qualityResults.js';

/** The quality sections of the bench report: the issue sets, then the corpus slices. */
export function qualityReport(quality: QualityResults): string {
  return [quality.issues ? issueSection(quality.issues, quality.variants) : '', quality.slices ? sliceSection(quality.slices, quality.variants) : '']
    .filter((section) => section !== '')
    .join('\n\n');
}

const percent = (value: number | null) => (value === null ? 'n/a' : (100 * value).toFixed(1));
const decimal = (value: number | null, digits = 3) => (value === null ? 'n/a' : value.toFixed(digits));

/** Acc@1/5/10 (strict: all gold files in the top k) and MRR over the issues' gold ranks. */
function rankingCells(ranks: readonly (readonly (number | null)[])[]): string[] {
  const acc = (k: number) => percent(meanOf(ranks.map((r) => (allInTop(r, k) ? 1 : 0))));
  return [acc(1), acc(5), acc(10), decimal(meanOf(ranks.map(reciprocalRank)))];
}

function issueSection(results: IssueResults, variants: readonly string[]): string {
  const languages = [...new Set(results.outcomes.map((issue) => issue.language))].sort();
  const rows: string[][] = [];
  for (const language of [...languages, 'all']) {
    const issues = results.outcomes.filter((issue) => language === 'all' || issue.language === language);
    for (const name of variants) {
      const measured = issues.flatMap((issue) => {
        const outcome = issue.variants[name];
        return outcome && !('error' in outcome) ? [{ issue, outcome }] : [];
      });
      // A chat-file variant leaves out the issues whose fix edits one file: those are not failures.
      const errors = issues.filter((issue) => {
        const outcome = issue.variants[name];
        return outcome !== undefined && 'error' in outcome;
      }).length;
      const recall = ISSUE_BUDGETS.map((budget) =>
        percent(meanOf(measured.map(({ outcome }) => outcome.named[budget]!.filter(Boolean).length / outcome.named[budget]!.length))),
      );
      rows.push([
        language,
        name,
        `${measured.length}${errors > 0 ? ` (${errors} failed)` : ''}`,
        ...rankingCells(measured.map(({ outcome }) => outcome.ranks)),
        recall.join(' / '),
        ...rankingCells(measured.map(({ issue, outcome }) => bm25RanksWithout(issue, outcome.chatFile))),
      ]);
    }
  }
  const indexSeconds = results.outcomes.reduce((sum, issue) => sum + issue.indexSeconds, 0);
  const note = [
    `${results.outcomes.length} issues in ${(results.seconds / 60).toFixed(1)} min (indexing ${(indexSeconds / 60).toFixed(1)} min of it).`,
    'Strict file-level Acc@k (%: every gold file in the top k of the ranking), MRR of the first gold file, and map recall (% of gold files the map names) at 1024 / 2048 / 4096 tokens;',
    'gold files in the indexed languages only; BM25 (k1 1.2, b 0.75) over the contents of the non-test indexed files, the issue text as the query, on the same issues.',
    ...(results.outcomes.some((issue) => Object.values(issue.variants).some((outcome) => 'chatFile' in outcome))
      ? [
          'Variants named chat-*: only the issues whose fix edits several files, with the one BM25 places best as the chat file; the other gold files are scored (for BM25 too, with the chat file taken out of its ranking).',
        ]
      : []),
    ...results.skipped.map((line) => `Skipped: ${line}.`),
  ].join(' ');
  return table(
    'Quality: issue sets',
    note,
    ['language', 'variant', 'n', 'Acc@1', 'Acc@5', 'Acc@10', 'MRR', 'map recall 1k / 2k / 4k', 'BM25 Acc@1', 'Acc@5', 'Acc@10', 'MRR'],
    rows,
  );
}

/** BM25's places of the gold files but the chat file, as if it were not in BM25's ranking. */
function bm25RanksWithout(issue: IssueOutcome, chatFile: string | undefined): (number | null)[] {
  if (chatFile === undefined) return issue.bm25;
  const chatRank = issue.bm25[issue.gold.indexOf(chatFile)] ?? null;
  return issue.bm25.filter((_, i) => issue.gold[i] !== chatFile).map((rank) => (rank !== null && chatRank !== null && chatRank < rank ? rank - 1 : rank));
}

type ChatMap = Exclude<ChatFileOutcome['maps'][string][string], { error: string }>;

/** A slice measure per chat file and its map (null: it does not apply), and its digits. */
const SLICE_MEASURES: Record<string, { digits: number; of: (file: ChatFileOutcome, map: ChatMap) => number | null }> = {
  'imports named': { digits: 2, of: (file, map) => (file.imports === 0 ? null : map.importsNamed / file.imports) },
  'callers named': { digits: 2, of: (file, map) => (file.callers === 0 ? null : map.callersNamed / file.callers) },
  'used definitions shown': { digits: 2, of: (file, map) => (file.usedDefinitions === 0 ? null : map.usedShown / file.usedDefinitions) },
  'files per map': { digits: 1, of: (_, map) => map.files },
  'definitions per map': { digits: 1, of: (_, map) => map.definitions },
};

/** Each measure's mean over a slice's chat files; over several slices, the mean of the slices' means (each slice weighs the same). */
function sliceCells(slices: readonly SliceOutcome[], variant: string, budget: number): string[] {
  let chatFiles = 0;
  let failed = 0;
  const perSlice = slices.map((slice) => {
    const maps = slice.chatFiles.flatMap((file) => {
      const map = file.maps[variant]?.[budget];
      return map && !('error' in map) ? [{ file, map }] : [];
    });
    chatFiles += slice.chatFiles.length;
    failed += slice.chatFiles.length - maps.length;
    return Object.values(SLICE_MEASURES).map((measure) => meanOf(maps.map(({ file, map }) => measure.of(file, map))));
  });
  return [
    `${chatFiles}${failed > 0 ? ` (${failed} failed)` : ''}`,
    ...Object.values(SLICE_MEASURES).map((measure, i) => decimal(meanOf(perSlice.map((means) => means[i]!)), measure.digits)),
  ];
}

function sliceSection(results: SliceResults, variants: readonly string[]): string {
  const rows: string[][] = [];
  const groups = [...results.outcomes.map((slice) => ({ name: slice.slice, slices: [slice] })), { name: 'mean', slices: results.outcomes }];
  for (const group of groups) {
    for (const variant of variants)
      for (const budget of SLICE_BUDGETS) rows.push([group.name, variant, String(budget), ...sliceCells(group.slices, variant, budget)]);
  }
  const noGraph = results.outcomes.filter((slice) => slice.importEdges === 0).map((slice) => slice.slice);
  const note = [
    `Per chat file (a fixed sample per slice, among files with an import or an importer), the map made with it as the chat file: the share of the files it imports that the map names, of the files importing it,`,
    `and of the definitions it uses (names it references, defined in a file it imports or in its folder) whose line the map shows; files and definition lines per map. Means over the chat files each share applies to (n/a: none).`,
    `${(results.seconds / 60).toFixed(1)} min.`,
    noGraph.length > 0 ? `No resolved import on ${noGraph.join(', ')}: chat files sampled among all files there.` : '',
    ...results.skipped.map((line) => `Skipped: ${line}.`),
  ]
    .filter((part) => part !== '')
    .join(' ');
  return table('Quality: corpus slices, per chat file', note, ['slice', 'variant', 'tokens', 'chat files', ...Object.keys(SLICE_MEASURES)], rows);
}

function table(title: string, note: string, header: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  return [
    `## ${title}`,
    '',
    note,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
