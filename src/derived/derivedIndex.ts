import { type OpenIndex, openIndexWhileParsing } from '../indexing/indexRepository.js';
import type { IndexOptions } from '../options/libraryOptions.js';
import { DerivedTables } from './derivedTables.js';

/** A repository's index opened and brought up to date, with its derived stage, which reads the last tables while the workers parse. */
export async function openDerivedIndex(options: IndexOptions): Promise<{ index: OpenIndex; derived: DerivedTables }> {
  let derived: DerivedTables | undefined;
  const index = await openIndexWhileParsing(options, ({ root, store }, changing, files) => {
    derived = new DerivedTables(store, root);
    derived.readAhead(changing, files);
  });
  return { index, derived: derived ?? new DerivedTables(index.store, index.root) };
}
