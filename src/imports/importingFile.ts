import type { Language, RankPart } from '../record/fileRecord.js';
import type { ImportingFile } from './importGraph.js';
import { moduleNamesOf } from './reExports.js';

/** A file as the resolvers read it, from its stored record (or none: a manifest, a file never parsed). */
export function importingFileOf(
  path: string,
  language: Language | null,
  record: Pick<RankPart, 'imports' | 'packageName' | 'definitions'> | undefined,
): ImportingFile {
  return {
    path,
    language,
    imports: record?.imports ?? { modules: [], names: [], lines: [] },
    packageName: record?.packageName ?? '',
    definedNames: moduleNamesOf(record?.definitions ?? []),
  };
}
