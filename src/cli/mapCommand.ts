import { UsageError } from '../errors.js';
import { buildMap } from '../map/buildMap.js';
import { StageTimer } from '../stageTimer.js';
import { type CommonArgs, indexOptionsFrom } from './commonOptions.js';

export interface MapArgs extends CommonArgs {
  maxTokens: number;
  chatFile?: (string | number)[];
  mentionFile?: (string | number)[];
  mentionIdent?: (string | number)[];
  anchor?: (string | number)[];
  excludeUnranked: boolean;
  maxContextWindow?: number;
  mapMulNoFiles: number;
  format: 'text' | 'json';
  maxLineLength: number;
  pagerankDamping: number;
  pagerankTol: number;
  pagerankMaxIter: number;
}

export async function runMapCommand(args: MapArgs): Promise<number> {
  if (!Number.isInteger(args.maxTokens) || args.maxTokens < 0) {
    throw new UsageError(`--max-tokens must be a whole number, not ${args.maxTokens}`);
  }
  if (!Number.isInteger(args.maxLineLength) || args.maxLineLength < 1) {
    throw new UsageError(`--max-line-length must be a whole number of at least 1, not ${args.maxLineLength}`);
  }
  if (!(args.pagerankDamping > 0 && args.pagerankDamping < 1)) {
    throw new UsageError(`--pagerank-damping must lie between 0 and 1, not ${args.pagerankDamping}`);
  }
  const timer = new StageTimer();
  const map = await buildMap({
    ...indexOptionsFrom(args),
    timer,
    maxTokens: args.maxTokens,
    chatFiles: args.chatFile?.map(String),
    mentionedFiles: args.mentionFile?.map(String),
    mentionedIdents: args.mentionIdent?.map(String),
    anchors: args.anchor?.map(String),
    excludeUnranked: args.excludeUnranked,
    maxContextWindow: args.maxContextWindow,
    mapMulNoFiles: args.mapMulNoFiles,
    maxLineLength: args.maxLineLength,
    pageRank: { damping: args.pagerankDamping, tolerance: args.pagerankTol, maxIterations: args.pagerankMaxIter },
  });
  process.stdout.write(args.format === 'json' ? `${JSON.stringify(map.ranked)}\n` : map.text);
  if (args.verbose) {
    const { files, definitions, references, entries, tokens, budget } = map.report;
    process.stderr.write(`repomap: ${files} files, ${definitions} defs, ${references} refs; map of ${entries} entries, ${tokens} tokens (budget ${budget})\n`);
    process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  }
  return 0;
}
