/** `repomap export`: the repository's index, brought up to date and warm, written as one artifact. */
import { isAbsolute, relative, resolve } from 'node:path';
import { DEFAULTS } from '../defaults.js';
import { ArtifactError } from '../errors.js';
import { lockIndexer } from '../indexing/indexerLock.js';
import { cacheDirOf, type IndexSummary } from '../indexing/indexRepository.js';
import { withWarmIndex } from '../map/warmIndex.js';
import { checkArtifactOptions } from '../options/checkOptions.js';
import type { ArtifactOptions } from '../options/libraryOptions.js';
import { StageTimer } from '../stageTimer.js';
import { writeArtifact } from './artifactFile.js';
import type { ArtifactCounts } from './artifactFormat.js';

export interface ExportSummary extends ArtifactCounts {
  /** The artifact written. */
  artifact: string;
  /** Its size. */
  bytes: number;
  /** The index run that brought the store up to date first. */
  index: IndexSummary;
  seconds: number;
}

/**
 * Indexes and warms the repository (see warmIndex), then writes its store to `artifact`: every
 * record, the token counts and what was derived at the store's generation. Other runs wait
 * meanwhile (the indexer's lock), so the artifact is one generation's.
 */
export async function exportIndex(options: ArtifactOptions): Promise<ExportSummary> {
  const started = performance.now();
  checkArtifactOptions(options);
  const artifact = resolve(options.artifact);
  const timer = options.timer ?? new StageTimer();
  const { summary, result } = await withWarmIndex({ ...options, timer }, async ({ root, store }) => {
    const inTree = relative(root, artifact);
    if (!inTree.startsWith('..') && !isAbsolute(inTree)) {
      options.onWarning?.(`${artifact} is inside the repository: the next index lists it as one of its files, which trees importing it lack`);
    }
    timer.begin('lock');
    const lock =
      store.location === null
        ? null
        : await lockIndexer(cacheDirOf(root, options), options.indexWaitMs ?? DEFAULTS.indexWaitMs, options.onWarning ?? (() => {}));
    try {
      store.catchUp();
      const generation = store.generation();
      timer.begin('export');
      return await writeArtifact(artifact, store.portable(), () => {
        store.catchUp();
        // Possible only when a run waited out the lock and wrote meanwhile.
        if (store.generation() !== generation) throw new ArtifactError(`the tag store changed while ${artifact} was written; export again`);
      });
    } finally {
      lock?.release();
    }
  });
  timer.end();
  return { ...result, artifact, index: summary, seconds: Math.round(performance.now() - started) / 1000 };
}
