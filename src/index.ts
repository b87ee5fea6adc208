/** The library API. */

export { type ExportSummary, exportIndex } from './artifact/exportIndex.js';
export { type ImportSummary, importIndex } from './artifact/importIndex.js';
export { type MergeOptions, type MergeSummary, mergeArtifacts } from './artifact/mergeArtifacts.js';
export type { ImportTargets } from './derived/importTargetsCodec.js';
export { ArtifactError, CacheDirError, NoMapError, NothingFoundError, OptionError, RepomapError, RepoPathError, RootError, UsageError } from './errors.js';
export type { IndexSummary, OpenIndex, SkippedFile } from './indexing/indexRepository.js';
export { indexRepository, openIndex } from './indexing/indexRepository.js';
export type { MapReport, RepoMap } from './map/buildMap.js';
export { buildMap, openRepoMap, RepoMapper } from './map/buildMap.js';
export { type MapJson, mapJson } from './map/mapJson.js';
export type { ShownDefinition, ShownFile } from './map/shownMap.js';
export { warmIndex } from './map/warmIndex.js';
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
export type { DepLink, DepsDirection, DepsRequest, DepsResult, ImportLine, NameLink } from './navigate/deps.js';
export { fileDeps } from './navigate/deps.js';
export type { FindHit, FindKind, FindRequest, FindResult } from './navigate/find.js';
export { findName } from './navigate/find.js';
export { outline } from './navigate/outline.js';
export type { Outline, OutlineDefinition, OutlineDetail, OutlineEntry, OutlineFile, OutlineFolder, OutlineOptions } from './navigate/outlineTree.js';
export type { RepoView, ViewOptions } from './navigate/repoView.js';
export { withRepoView } from './navigate/repoView.js';
export type { NumberedLine } from './navigate/viewLines.js';
export type { ArtifactOptions, IndexOptions, IndexShard, MapOptions, MapRequest, MapStyle, MissingFiles } from './options/libraryOptions.js';
export type { IdentifierTables } from './rank/identifierTables.js';
export type { Definition, FileRecord, Language, References, SkipReason } from './record/fileRecord.js';
export type { FormatOptions, MapFormat, MapFormatName, MapSource } from './render/formats.js';
export { MAP_FORMATS, MAP_STYLES } from './render/formats.js';
