/** The library API. */

export { NoMapError, RepomapError, RootError, UsageError } from './errors.js';
export type { IndexOptions, IndexSummary, RefreshedIndex } from './index/indexRepo.js';
export { indexRepo, refreshIndex } from './index/indexRepo.js';
export type { MapOptions, MapReport, MapRequest, RepoMap } from './map/buildMap.js';
export { buildMap, openRepoMap, RepoMapper } from './map/buildMap.js';
export type { Definition, FileRecord, Language, References, SkipReason } from './record/fileRecord.js';
