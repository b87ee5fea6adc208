/**
 * Every file's import entries resolved to repository files (resolveImports' targets), as one
 * stored value over file ids: int32s of the file count, then per file its first entry (CSR over
 * entries, files + 1 of them), then per entry its first target (entries + 1), then the targets'
 * file ids. Resolving costs a pass over every manifest and import; reading this, one copy.
 */

/** Per file id, per import entry, the paths of the files it names. */
export type ImportTargets = readonly (readonly (readonly string[])[])[];

export function encodeImportTargets(targets: ImportTargets, paths: readonly string[]): Uint8Array {
  const idOf = new Map(paths.map((path, id) => [path, id]));
  const entryCount = targets.reduce((sum, entries) => sum + entries.length, 0);
  const targetCount = targets.reduce((sum, entries) => sum + entries.reduce((inner, entry) => inner + entry.length, 0), 0);
  const out = new Int32Array(1 + (targets.length + 1) + (entryCount + 1) + targetCount);
  out[0] = targets.length;
  const entryOffsetsAt = 1;
  const targetOffsetsAt = entryOffsetsAt + targets.length + 1;
  let targetAt = targetOffsetsAt + entryCount + 1;
  let entry = 0;
  targets.forEach((entries, file) => {
    out[entryOffsetsAt + file] = entry;
    for (const named of entries) {
      out[targetOffsetsAt + entry++] = targetAt - (targetOffsetsAt + entryCount + 1);
      for (const path of named) out[targetAt++] = idOf.get(path) ?? -1;
    }
  });
  out[entryOffsetsAt + targets.length] = entry;
  out[targetOffsetsAt + entryCount] = targetAt - (targetOffsetsAt + entryCount + 1);
  return new Uint8Array(out.buffer);
}

/** The targets stored in `bytes` for these `paths`; null when they do not fit them (a foreign or damaged value). */
export function decodeImportTargets(bytes: Uint8Array, paths: readonly string[]): ImportTargets | null {
  if (bytes.length % 4 !== 0 || bytes.length < 8) return null;
  // Stored values need not be 4-byte aligned: copied out.
  const ints = new Int32Array(bytes.length / 4);
  new Uint8Array(ints.buffer).set(bytes);
  const files = ints[0]!;
  if (files !== paths.length || ints.length < 1 + files + 1) return null;
  const entryOffsetsAt = 1;
  const entryCount = ints[entryOffsetsAt + files]!;
  const targetOffsetsAt = entryOffsetsAt + files + 1;
  const targetsAt = targetOffsetsAt + entryCount + 1;
  if (entryCount < 0 || targetsAt > ints.length || ints[targetOffsetsAt + entryCount] !== ints.length - targetsAt) return null;
  const targets: string[][][] = [];
  const targetCount = ints.length - targetsAt;
  for (let file = 0; file < files; file++) {
    const entries: string[][] = [];
    const [firstEntry, endEntry] = [ints[entryOffsetsAt + file]!, ints[entryOffsetsAt + file + 1]!];
    if (firstEntry < 0 || endEntry < firstEntry || endEntry > entryCount) return null;
    for (let entry = firstEntry; entry < endEntry; entry++) {
      const named: string[] = [];
      const [first, end] = [ints[targetOffsetsAt + entry]!, ints[targetOffsetsAt + entry + 1]!];
      if (first < 0 || end < first || end > targetCount) return null;
      for (let at = first; at < end; at++) {
        const path = paths[ints[targetsAt + at]!];
        if (path === undefined) return null;
        named.push(path);
      }
      entries.push(named);
    }
    targets.push(entries);
  }
  return targets;
}
