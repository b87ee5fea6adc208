import type { ImportingFile } from '../imports/importGraph.js';
import { decodeStamps, encodeStamps, type StoredStamp } from '../record/recordCodec.js';

/**
 * What the identifier tables were built from, saved beside them, so that the next build after a
 * change reads only the records that changed (see patchTables.ts): each file's record stamp as
 * the store had it (a record rewritten gets another), and a digest of what import resolution
 * read of it, so that an edit that leaves every file's imports as they were keeps the resolved
 * imports. One value: a count, per file two u32s of its import digest, then the stamps as
 * encodeStamps writes them, in the tables' path order.
 */
export interface TableInputs {
  /** Per file, in path order, its record's stamp. */
  stamps: Map<string, StoredStamp>;
  /** Per file, two u32s: the first 8 bytes of importDigest. */
  importDigests: Uint32Array;
}

/** The stamp of a file that had no record: equal to no stamp, so the file counts as changed. */
const NO_RECORD: StoredStamp = {
  mtimeMs: Number.NaN,
  size: Number.NaN,
  ctimeMs: Number.NaN,
  ino: Number.NaN,
  definitions: 0,
  references: 0,
  skipped: null,
  fileTimeoutMs: 0,
  retries: 0,
};

/** Inputs of `paths` from the store's stamps and each file's import digest (by path order). */
export function tableInputsOf(paths: readonly string[], stamps: ReadonlyMap<string, StoredStamp>, importDigests: Uint32Array): TableInputs {
  return { stamps: new Map(paths.map((path) => [path, stamps.get(path) ?? NO_RECORD])), importDigests };
}

/** Whether a record still has the stamp it had: then it holds the tags it held. */
export function sameRecordStamp(a: StoredStamp | undefined, b: StoredStamp | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.mtimeMs === b.mtimeMs &&
    a.size === b.size &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.definitions === b.definitions &&
    a.references === b.references &&
    a.skipped === b.skipped &&
    a.fileTimeoutMs === b.fileTimeoutMs &&
    a.retries === b.retries
  );
}

/** What the resolvers read of a file, hashed: SHA-1's first 8 bytes, written at `at` (in u32s) of `out`. */
export function writeImportDigest(file: ImportingFile, out: Uint32Array, at: number): void {
  const { createHash } = process.getBuiltinModule('node:crypto');
  const { imports } = file;
  const digest = createHash('sha1')
    .update(JSON.stringify([file.language, file.packageName, file.definedNames, imports.modules, imports.names, imports.lines]))
    .digest();
  out[at] = digest.readUInt32LE(0);
  out[at + 1] = digest.readUInt32LE(4);
}

export function encodeTableInputs(inputs: TableInputs): Uint8Array {
  const stamps = encodeStamps(inputs.stamps);
  const out = new Uint8Array(4 + inputs.importDigests.byteLength + stamps.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, inputs.stamps.size, true);
  for (let i = 0; i < inputs.importDigests.length; i++) view.setUint32(4 + 4 * i, inputs.importDigests[i]!, true);
  out.set(stamps, 4 + inputs.importDigests.byteLength);
  return out;
}

/** The inputs encodeTableInputs wrote, copied out of `bytes`; null for bytes it did not write. */
export function decodeTableInputs(bytes: Uint8Array): TableInputs | null {
  if (bytes.length < 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const stampsAt = 4 + 8 * count;
  if (stampsAt > bytes.length) return null;
  const stamps = decodeStamps(bytes.subarray(stampsAt));
  if (!stamps || stamps.size !== count) return null;
  const importDigests = new Uint32Array(2 * count);
  for (let i = 0; i < importDigests.length; i++) importDigests[i] = view.getUint32(4 + 4 * i, true);
  return { stamps, importDigests };
}
