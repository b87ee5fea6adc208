import { UsageError } from '../errors.js';
import type { FileTags } from '../rank/rankDefinitions.js';
import type { RenderEntry } from '../render/renderMap.js';

/**
 * `--anchor FILE`, `--anchor IDENT` or `--anchor FILE:IDENT`: ten times a mentioned file's
 * personalization, and always in the map.
 */
export interface ResolvedAnchors {
  /** Anchor weight per file: 1 per anchor, split evenly when an identifier has several definers. */
  weights: Map<string, number>;
  /** What the map must show: the anchored files, or the anchored definitions. */
  entries: RenderEntry[];
  warnings: string[];
}

/** `toRepoPath` turns a path as the user wrote it into the repository's path for it. */
export function resolveAnchors(specs: readonly string[], files: readonly FileTags[], toRepoPath: (path: string) => string): ResolvedAnchors {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const resolved: ResolvedAnchors = { weights: new Map(), entries: [], warnings: [] };
  const addWeight = (path: string, weight: number) => resolved.weights.set(path, (resolved.weights.get(path) ?? 0) + weight);
  const linesOf = (file: FileTags, name: string) => file.definitions.filter((d) => d.name === name).map((d) => d.line);

  for (const spec of specs) {
    const colon = spec.lastIndexOf(':');
    const qualified = colon > 0 ? byPath.get(toRepoPath(spec.slice(0, colon))) : undefined;
    if (qualified) {
      const name = spec.slice(colon + 1);
      const lines = linesOf(qualified, name);
      if (lines.length === 0) throw new UsageError(`anchor ${spec}: ${qualified.path} defines no ${name}`);
      addWeight(qualified.path, 1);
      resolved.entries.push({ path: qualified.path, lines });
      continue;
    }
    const file = byPath.get(toRepoPath(spec));
    if (file) {
      addWeight(file.path, 1);
      resolved.entries.push({ path: file.path, lines: [] });
      continue;
    }
    const definers = files.filter((candidate) => candidate.definitions.some((d) => d.name === spec));
    if (definers.length === 0) throw new UsageError(`anchor ${spec}: no such file, and no file defines it`);
    if (definers.length > 1) {
      resolved.warnings.push(
        `anchor ${spec} is defined in ${definers.length} files (${definers.map((d) => d.path).join(', ')}); its weight is split between them`,
      );
    }
    for (const definer of definers) {
      addWeight(definer.path, 1 / definers.length);
      resolved.entries.push({ path: definer.path, lines: linesOf(definer, spec) });
    }
  }
  return resolved;
}
