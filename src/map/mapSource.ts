import { fileRoleOf } from '../rank/fileRoles.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { fileIdOf, importersOf, importsOf, pathOfFile } from '../rank/tableLookups.js';
import type { MapSource } from '../render/formats.js';
import { shownLinesOf } from '../render/renderMap.js';

/**
 * What the formats read (src/render/formats.ts), from the ranking tables' resolved imports and
 * the records' parts as the caller reads them: composeMap from its DerivedTables, a navigation
 * command from its RepoView (`record(path)` and renderPartOf).
 */
export function mapSourceOf(tables: IdentifierTables, parts: Pick<MapSource, 'renderPart' | 'definitions'>): MapSource {
  return {
    renderPart: (path) => parts.renderPart(path),
    shownLines: (path, lines, options) => {
      const part = parts.renderPart(path);
      return part && shownLinesOf(part, lines, options);
    },
    isTest: (path) => fileRoleOf(path) === 'test',
    definitions: (path) => parts.definitions(path),
    imports: (path) => {
      const fileId = fileIdOf(tables, path);
      return fileId === undefined ? [] : Array.from(importsOf(tables, fileId), (target) => pathOfFile(tables, target));
    },
    importerCount: (path) => {
      const fileId = fileIdOf(tables, path);
      return fileId === undefined ? 0 : importersOf(tables, fileId).length;
    },
  };
}
