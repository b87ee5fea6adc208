/** The library API. */

export { NoMapError, RepomapError, RootError, UsageError } from './errors.js';
export type { IndexOptions, IndexSummary, OpenIndex } from './indexing/indexRepository.js';
export { indexRepository, openIndex } from './indexing/indexRepository.js';
export type { MapOptions, MapReport, MapRequest, RepoMap } from './map/buildMap.js';
export { buildMap, openRepoMap, RepoMapper } from './map/buildMap.js';
export type { Definition, FileRecord, Language, References, SkipReason } from './record/fileRecord.js';
