import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { buildMap } from '../map/buildMap.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

export async function runMapCommand(args: ArgsFor<'map'>): Promise<number> {
  const timer = new StageTimer();
  const map = await buildMap({
    ...indexOptionsFrom(args),
    timer,
    maxTokens: args.maxTokens,
    query: queryOf(args),
    ranking: args.ranking,
    tests: args.tests,
    gitSignals: args.gitSignals,
    chatFiles: args.chatFiles,
    mentionedFiles: args.mentionedFiles,
    mentionedIdents: args.mentionedIdents,
    anchors: args.anchors,
    missingFiles: args.missingFiles,
    excludeUnranked: args.excludeUnranked,
    maxContextWindow: args.maxContextWindow,
    mapMulNoFiles: args.mapMulNoFiles,
    maxLineLength: args.maxLineLength,
    style: args.style,
    pageRank: { damping: args.pageRankDamping, tolerance: args.pageRankTolerance, maxIterations: args.pageRankMaxIterations },
  });
  process.stdout.write(args.format === 'json' ? `${JSON.stringify(map.ranked)}\n` : map.text);
  if (args.verbose) {
    const { files, definitions, references, entries, tokens, budget } = map.report;
    process.stderr.write(`repomap: ${files} files, ${definitions} defs, ${references} refs; map of ${entries} entries, ${tokens} tokens (budget ${budget})\n`);
    process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  }
  return 0;
}

/** --query and --query-file together: the text of both, the flag's first. */
function queryOf(args: ArgsFor<'map'>): string | undefined {
  if (args.queryFile === undefined) return args.query;
  let text: string;
  try {
    text = readFileSync(args.queryFile === '-' ? 0 : args.queryFile, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --query-file ${args.queryFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return args.query === undefined ? text : `${args.query}\n${text}`;
}
