import { relative, resolve, sep } from 'node:path';
import { NoMapError } from '../errors.js';
import { refreshIndex, type IndexOptions } from '../index/indexRepo.js';
import { packMap } from '../pack/packMap.js';
import { loadCl100k, RenderedTokenCounter } from '../pack/tokenCount.js';
import { DEFAULT_PAGERANK, type PageRankOptions } from '../rank/pageRank.js';
import { rankDefinitions, type FileTags } from '../rank/rankDefinitions.js';
import type { FileRecord } from '../record/fileRecord.js';
import { DEFAULT_MAX_LINE_LENGTH, renderMap, type RenderEntry } from '../render/renderMap.js';
import { StageTimer } from '../stageTimer.js';

export const DEFAULT_MAX_TOKENS = 1024;

export interface MapOptions extends IndexOptions {
  /** The token budget: the map never exceeds it. */
  maxTokens?: number;
  /** Files being edited: they steer the ranking and are left out of the map. */
  chatFiles?: readonly string[];
  mentionedFiles?: readonly string[];
  mentionedIdents?: readonly string[];
  maxLineLength?: number;
  pageRank?: Partial<PageRankOptions>;
}

export interface MapReport {
  files: number;
  definitions: number;
  references: number;
  /** Ranked entries the map holds. */
  entries: number;
  tokens: number;
}

export interface RepoMap {
  text: string;
  report: MapReport;
}

/** A path given by the user (absolute, or relative to the working directory) as the repository names it. */
function repoPath(root: string, path: string): string {
  return relative(root, resolve(path)).split(sep).join('/');
}

/**
 * The map of a repository: the index brought up to date, every record read from the store (no
 * source file), aider's ranking, and the largest ranked prefix that fits the budget.
 */
export async function buildMap(options: MapOptions = {}): Promise<RepoMap> {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (maxTokens <= 0) throw new NoMapError(`a budget of ${maxTokens} tokens holds no map`);
  const timer = options.timer ?? new StageTimer();
  const index = await refreshIndex({ ...options, timer });
  try {
    timer.begin('read records');
    const records = new Map<string, FileRecord>();
    const tags: FileTags[] = [];
    let definitionCount = 0;
    let referenceCount = 0;
    for (const file of index.files) {
      const record = index.store.get(file.path);
      if (record) records.set(file.path, record);
      tags.push({
        path: file.path,
        definitions: record?.definitions ?? [],
        referenceNames: record?.references.names ?? [],
      });
      definitionCount += record?.definitions.length ?? 0;
      referenceCount += record?.references.names.length ?? 0;
    }
    if (index.files.length === 0) throw new NoMapError(`no files to map in ${index.root}`);

    timer.begin('rank');
    const inRepo = (paths: readonly string[] | undefined) => new Set((paths ?? []).map((path) => repoPath(index.root, path)));
    const chatFiles = inRepo(options.chatFiles);
    const ranking = rankDefinitions(tags, {
      chatFiles,
      mentionedFiles: inRepo(options.mentionedFiles),
      mentionedIdents: new Set(options.mentionedIdents ?? []),
      pageRank: { ...DEFAULT_PAGERANK, ...options.pageRank },
    });
    const entries: RenderEntry[] = ranking.entries.map((entry) => ({ path: entry.path, lines: entry.lines }));

    timer.begin('load tokenizer');
    const counter = new RenderedTokenCounter(await loadCl100k());
    timer.begin('pack');
    const renderOptions = { chatFiles, maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH };
    const packed = packMap(
      entries.length,
      (count) => renderMap(entries.slice(0, count), (path) => records.get(path), renderOptions),
      (rendering) => counter.count(rendering),
      maxTokens,
    );
    timer.end();
    if (packed.text === '') throw new NoMapError(`no map fits in ${maxTokens} tokens`);
    return {
      text: packed.text,
      report: {
        files: index.files.length,
        definitions: definitionCount,
        references: referenceCount,
        entries: packed.entries,
        tokens: packed.tokens,
      },
    };
  } finally {
    await index.store.close();
  }
}
