/** The library API. */
export { indexRepo, refreshIndex } from './index/indexRepo.js';
export type { IndexOptions, IndexSummary, RefreshedIndex } from './index/indexRepo.js';
export { buildMap, openRepoMap, RepoMapper } from './map/buildMap.js';
export type { MapOptions, MapReport, MapRequest, RepoMap } from './map/buildMap.js';
export type { Definition, FileRecord, Language, References, SkipReason } from './record/fileRecord.js';
export { RepomapError, RootError, UsageError, NoMapError } from './errors.js';
