import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { buildMap } from '../map/buildMap.js';
import { explanationText } from '../map/explainMap.js';
import { mapJson } from '../map/mapJson.js';
import { MAX_QUERY_LENGTH } from '../options/optionTable.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

export async function run(args: ArgsFor<'map'>): Promise<number> {
  const timer = new StageTimer();
  const map = await buildMap({
    ...indexOptionsFrom(args),
    timer,
    maxTokens: args.maxTokens,
    query: await queryOf(args),
    ranking: args.ranking,
    tests: args.tests,
    gitSignals: args.gitSignals,
    chatFiles: args.chatFiles,
    mentionedFiles: args.mentionedFiles,
    mentionedIdents: args.mentionedIdents,
    scopes: args.scopes,
    anchors: args.anchors,
    missingFiles: args.missingFiles,
    excludeUnranked: args.excludeUnranked,
    maxContextWindow: args.maxContextWindow,
    mapMulNoFiles: args.mapMulNoFiles,
    maxLineLength: args.maxLineLength,
    style: args.style,
    explain: args.explain,
    // JSON carries the text format's rendering.
    format: args.format === 'json' ? 'text' : args.format,
    pageRank: { damping: args.pageRankDamping, tolerance: args.pageRankTolerance, maxIterations: args.pageRankMaxIterations },
  });
  process.stdout.write(args.format === 'json' ? `${JSON.stringify(mapJson(map, args.ranked))}\n` : map.text);
  if (map.explain && args.format !== 'json') process.stderr.write(explanationText(map.explain));
  if (args.verbose) {
    const { files, definitions, references, entries, tokens, budget } = map.report;
    process.stderr.write(`repomap: ${files} files, ${definitions} defs, ${references} refs; map of ${entries} entries, ${tokens} tokens (budget ${budget})\n`);
    process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  }
  return 0;
}

/**
 * --query and --query-file together: the text of both, the flag's first. The file (a FIFO, a
 * device, stdin) is read up to the limit of a task's text and no further: a longer one is an
 * error, not a task cut short.
 */
async function queryOf(args: ArgsFor<'map'>): Promise<string | undefined> {
  const { query, queryFile } = args;
  if (queryFile === undefined) return query;
  let bytes: Buffer | null;
  try {
    const stream = queryFile === '-' ? process.stdin : createReadStream(queryFile, { end: MAX_QUERY_LENGTH });
    bytes = await readAtMost(stream, MAX_QUERY_LENGTH);
  } catch (error) {
    throw new UsageError(`cannot read --query-file ${queryFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (bytes === null) throw new UsageError(`--query-file ${queryFile} holds more than ${MAX_QUERY_LENGTH} bytes, the most a task's text may hold`);
  const text = query === undefined ? bytes.toString('utf8') : `${query}\n${bytes.toString('utf8')}`;
  if (text.length > MAX_QUERY_LENGTH) {
    throw new UsageError(`--query and --query-file ${queryFile} hold more than ${MAX_QUERY_LENGTH} characters together, the most a task's text may hold`);
  }
  return text;
}

/** The stream's bytes, or null as soon as they pass `limit` (the stream is then destroyed). */
async function readAtMost(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length > limit) return null;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, length);
}
