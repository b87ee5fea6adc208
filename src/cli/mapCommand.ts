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
