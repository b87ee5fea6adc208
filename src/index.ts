/** The library API. */

export type { ImportTargets } from './derived/importTargetsCodec.js';
export { CacheDirError, NoMapError, OptionError, RepomapError, RepoPathError, RootError, UsageError } from './errors.js';
export type { IndexSummary, OpenIndex, SkippedFile } from './indexing/indexRepository.js';
export { indexRepository, openIndex } from './indexing/indexRepository.js';
export type { MapReport, RepoMap } from './map/buildMap.js';
export { buildMap, openRepoMap, RepoMapper } from './map/buildMap.js';
export {
  type AtAnswer,
  type AtDefinition,
  type AtOptions,
  type AtPosition,
  type AtReference,
  type AtResult,
  at,
  type How,
  parsePosition,
} from './navigate/at.js';
export type { RepoView, ViewOptions } from './navigate/repoView.js';
export { withRepoView } from './navigate/repoView.js';
export type { IndexOptions, MapOptions, MapRequest, MapStyle, MissingFiles } from './options/libraryOptions.js';
export type { IdentifierTables } from './rank/identifierTables.js';
export type { Definition, FileRecord, Language, References, SkipReason } from './record/fileRecord.js';
