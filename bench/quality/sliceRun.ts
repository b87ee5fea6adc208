import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { languageOf } from '../../src/discover/languages.js';
import { openRepoMap } from '../../src/index.js';
import type { ShownFile } from '../../src/map/shownMap.js';
import type { IdentifierTables } from '../../src/rank/identifierTables.js';
import {
  definerSlots,
  fileOfSlot,
  filePaths,
  identifierNames,
  importersOf,
  importsOf,
  linesOfSlot,
  pathOfFile,
  referencedNames,
} from '../../src/rank/tableLookups.js';
import type { ChatFileOutcome, ChatMapOutcome, SliceOutcome, SliceResults } from './qualityResults.js';
import { SLICE_BUDGETS } from './qualityResults.js';
import type { Variant } from './variants.js';

export interface SliceRunOptions {
  corpora: string;
  slices: readonly string[];
  /** Chat files sampled per slice. */
  chatFiles: number;
  /** Each slice's tag store lives under it: never in the corpus. */
  scratchDir: string;
  variants: readonly Variant[];
  progress: (message: string) => void;
}

/** Per slice, per sampled chat file, per variant and budget: what of the chat file's neighbourhood the map names. */
export async function runSlices(options: SliceRunOptions): Promise<SliceResults> {
  const started = performance.now();
  const skipped: string[] = [];
  const outcomes: SliceOutcome[] = [];
  for (const slice of options.slices) {
    const root = join(options.corpora, 'slices', slice);
    if (!existsSync(root)) {
      skipped.push(`${slice}: no ${root} (../shared/corpora/make-corpora.sh builds it)`);
      continue;
    }
    outcomes.push(await measureSlice(slice, root, options));
    options.progress(`${slice}: ${outcomes[outcomes.length - 1]!.chatFiles.length} chat files mapped`);
  }
  return { outcomes, skipped, seconds: (performance.now() - started) / 1000 };
}

async function measureSlice(slice: string, root: string, options: SliceRunOptions): Promise<SliceOutcome> {
  // repomap makes a cache folder, not its parents.
  mkdirSync(join(options.scratchDir, 'stores'), { recursive: true });
  const mapper = await openRepoMap({ root, cacheDir: join(options.scratchDir, 'stores', slice) });
  try {
    const tables = await mapper.identifierTables();
    const paths = filePaths(tables);
    const importEdges = paths.reduce((sum, _, fileId) => sum + importsOf(tables, fileId).length, 0);
    const identifiers = new Set(identifierNames(tables));
    const chatFiles: ChatFileOutcome[] = [];
    for (const fileId of sampleChatFiles(tables, importEdges > 0, options.chatFiles)) {
      const path = pathOfFile(tables, fileId);
      const imports = Array.from(importsOf(tables, fileId), (id) => pathOfFile(tables, id));
      const callers = importersOf(tables, fileId).map((id) => pathOfFile(tables, id));
      const used = usedDefinitions(tables, fileId);
      const outcome: ChatFileOutcome = { path, imports: imports.length, callers: callers.length, usedDefinitions: used.length, maps: {} };
      for (const variant of options.variants) {
        const request = variant.request({ text: '', paths, identifiers });
        const byBudget: ChatFileOutcome['maps'][string] = {};
        for (const budget of SLICE_BUDGETS) {
          try {
            const map = await mapper.map({ ...request, chatFiles: [path], maxTokens: budget, cwd: root });
            byBudget[budget] = measureMap(map.shown, imports, callers, used);
          } catch (error) {
            byBudget[budget] = { error: error instanceof Error ? error.message : String(error) };
          }
        }
        outcome.maps[variant.name] = byBudget;
      }
      chatFiles.push(outcome);
    }
    return { slice, importEdges, chatFiles };
  } finally {
    await mapper.close();
  }
}

/**
 * `count` files in an indexed language, by a hash of their paths (the same sample on every run):
 * among files with an import or an importer, or, in a graph with no edge, among all.
 */
function sampleChatFiles(tables: IdentifierTables, graphHasEdges: boolean, count: number): number[] {
  const candidates: { fileId: number; key: string }[] = [];
  filePaths(tables).forEach((path, fileId) => {
    if (languageOf(path) === null) return;
    if (graphHasEdges && importsOf(tables, fileId).length === 0 && importersOf(tables, fileId).length === 0) return;
    candidates.push({ fileId, key: createHash('sha1').update(path).digest('hex') });
  });
  return candidates
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .slice(0, count)
    .map(({ fileId }) => fileId);
}

/** A definition as `path:line`. */
export type DefinitionKey = string;

/** The definitions the chat file uses: of the names it references, those defined in a file it imports or in a file of its folder. */
export function usedDefinitions(tables: IdentifierTables, fileId: number): DefinitionKey[] {
  const path = pathOfFile(tables, fileId);
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const imported = new Set(importsOf(tables, fileId));
  const used = new Set<DefinitionKey>();
  for (const name of referencedNames(tables, fileId)) {
    for (const slot of definerSlots(tables, name)) {
      const definer = fileOfSlot(tables, slot);
      if (definer === fileId) continue;
      const definerPath = pathOfFile(tables, definer);
      const sameFolder = definerPath.startsWith(folder) && !definerPath.slice(folder.length).includes('/');
      if (!imported.has(definer) && !sameFolder) continue;
      for (const line of linesOfSlot(tables, slot)) used.add(`${definerPath}:${line}`);
    }
  }
  return [...used];
}

export function measureMap(
  shown: readonly ShownFile[],
  imports: readonly string[],
  callers: readonly string[],
  used: readonly DefinitionKey[],
): ChatMapOutcome {
  const files = new Set(shown.map((entry) => entry.path));
  const shownDefinitions = new Set<DefinitionKey>();
  for (const file of shown) for (const { line } of file.definitions) shownDefinitions.add(`${file.path}:${line}`);
  return {
    importsNamed: imports.filter((path) => files.has(path)).length,
    callersNamed: callers.filter((path) => files.has(path)).length,
    usedShown: used.filter((key) => shownDefinitions.has(key)).length,
    files: files.size,
    definitions: shownDefinitions.size,
  };
}
