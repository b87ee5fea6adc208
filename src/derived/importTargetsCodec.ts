/**
 * Every file's import entries resolved to repository files (resolveImports' targets), as one
 * stored value over file ids: int32s of the file count, then per file its first entry (CSR over
 * entries, files + 1 of them), then per entry its first target (entries + 1), then the targets'
 * file ids. Resolving costs a pass over every manifest and import; reading this, one copy, and
 * a file's entries are made only when asked for (`at` asks for a few files' of thousands).
 */

/** Per file id, per import entry, the paths of the files it names. */
export interface ImportTargets {
  /** How many files: file ids are below it. */
  readonly fileCount: number;
  /** The entries of file `fileId`, each the paths it names; none for an id out of range. */
  of(fileId: number): readonly (readonly string[])[];
}

/** Per file id, per import entry, the paths it names: what resolving imports gives. */
export type ResolvedTargets = readonly (readonly (readonly string[])[])[];

/** Targets just resolved, as ImportTargets. */
export function resolvedImportTargets(resolved: ResolvedTargets): ImportTargets {
  return { fileCount: resolved.length, of: (fileId) => resolved[fileId] ?? [] };
}

export function encodeImportTargets(targets: ResolvedTargets, paths: readonly string[]): Uint8Array {
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

/** The targets stored in `bytes` for these `paths`, every offset and id checked now; null when they do not fit them (a foreign or damaged value). */
export function decodeImportTargets(bytes: Uint8Array, paths: readonly string[]): ImportTargets | null {
  if (bytes.length % 4 !== 0 || bytes.length < 8) return null;
  // Stored values need not be 4-byte aligned: copied out.
  const ints = new Int32Array(bytes.length / 4);
  new Uint8Array(ints.buffer).set(bytes);
  const files = ints[0]!;
  if (files !== paths.length || ints.length < 1 + files + 1) return null;
  const entryOffsets = ints.subarray(1, 1 + files + 1);
  const entryCount = entryOffsets[files]!;
  const targetOffsetsAt = 1 + files + 1;
  if (entryCount < 0 || targetOffsetsAt + entryCount + 1 > ints.length) return null;
  const targetOffsets = ints.subarray(targetOffsetsAt, targetOffsetsAt + entryCount + 1);
  const targets = ints.subarray(targetOffsetsAt + entryCount + 1);
  if (entryOffsets[0] !== 0 || targetOffsets[0] !== 0 || targetOffsets[entryCount] !== targets.length) return null;
  for (let file = 0; file < files; file++) if (entryOffsets[file + 1]! < entryOffsets[file]!) return null;
  for (let entry = 0; entry < entryCount; entry++) if (targetOffsets[entry + 1]! < targetOffsets[entry]!) return null;
  for (const target of targets) if (target < 0 || target >= files) return null;
  return new StoredImportTargets(paths, entryOffsets, targetOffsets, targets);
}

/** Targets read from their checked columns, a file's entries made on first ask. */
class StoredImportTargets implements ImportTargets {
  private readonly made = new Map<number, readonly (readonly string[])[]>();

  constructor(
    private readonly paths: readonly string[],
    private readonly entryOffsets: Int32Array,
    private readonly targetOffsets: Int32Array,
    private readonly targets: Int32Array,
  ) {}

  get fileCount(): number {
    return this.paths.length;
  }

  of(fileId: number): readonly (readonly string[])[] {
    if (!(fileId >= 0 && fileId < this.paths.length)) return [];
    let entries = this.made.get(fileId);
    if (!entries) {
      const made: string[][] = [];
      for (let entry = this.entryOffsets[fileId]!; entry < this.entryOffsets[fileId + 1]!; entry++) {
        const named: string[] = [];
        for (let at = this.targetOffsets[entry]!; at < this.targetOffsets[entry + 1]!; at++) named.push(this.paths[this.targets[at]!]!);
        made.push(named);
      }
      entries = made;
      this.made.set(fileId, entries);
    }
    return entries;
  }
}
