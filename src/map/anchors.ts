import { UsageError } from '../errors.js';
import { bareFileEntry, type EntryCode } from '../rank/entryCodes.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { definerSlots, fileIdOf, fileOfSlot, pathOfFile, pathOfSlot } from '../rank/tableLookups.js';

/**
 * `--anchor FILE`, `--anchor IDENT` or `--anchor FILE:IDENT`: ten times a mentioned file's
 * personalization, and always in the map.
 */
export interface ResolvedAnchors {
  /** Anchor weight per file: 1 per anchor, split evenly when an identifier has several definers. */
  weights: Map<string, number>;
  /** What the map must show, as the ranking codes it: the anchored files, or the anchored definitions. */
  codes: EntryCode[];
  warnings: string[];
}

/** `toRepoPath` turns a path as the user wrote it into the repository's path for it, or '' when it names no file of the repository. */
export function resolveAnchors(specs: readonly string[], tables: IdentifierTables, toRepoPath: (path: string) => string): ResolvedAnchors {
  const resolved: ResolvedAnchors = { weights: new Map(), codes: [], warnings: [] };
  const addWeight = (path: string, weight: number) => resolved.weights.set(path, (resolved.weights.get(path) ?? 0) + weight);
  const pathOf = (slot: number) => pathOfSlot(tables, slot);

  for (const spec of specs) {
    const colon = spec.lastIndexOf(':');
    const qualified = colon > 0 ? fileIdOf(tables, toRepoPath(spec.slice(0, colon))) : undefined;
    if (qualified !== undefined) {
      const name = spec.slice(colon + 1);
      const slot = definerSlots(tables, name).find((d) => fileOfSlot(tables, d) === qualified);
      const path = pathOfFile(tables, qualified);
      if (slot === undefined) throw new UsageError(`anchor ${spec}: ${path} defines no ${name}`);
      addWeight(path, 1);
      resolved.codes.push(slot as EntryCode);
      continue;
    }
    const fileId = fileIdOf(tables, toRepoPath(spec));
    if (fileId !== undefined) {
      const path = pathOfFile(tables, fileId);
      addWeight(path, 1);
      resolved.codes.push(bareFileEntry(fileId));
      continue;
    }
    const slots = definerSlots(tables, spec);
    if (slots.length === 0) throw new UsageError(`anchor ${spec}: no such file, and no file defines it`);
    if (slots.length > 1) {
      resolved.warnings.push(`anchor ${spec} is defined in ${slots.length} files (${slots.map(pathOf).join(', ')}); its weight is split between them`);
    }
    for (const slot of slots) {
      addWeight(pathOf(slot), 1 / slots.length);
      resolved.codes.push(slot as EntryCode);
    }
  }
  return resolved;
}
