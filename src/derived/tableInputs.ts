import type { ImportingFile } from '../imports/importGraph.js';
import { type StoredStamp, sameFile, UNMATCHED_STAMP } from '../record/recordCodec.js';
import { StampTable } from '../record/stampTable.js';
import { derivedValueRoom } from '../store/tagStore.js';

/**
 * What the identifier tables were built from, saved beside them, so that the next build after a
 * change reads only the records that changed (see patchTables.ts): each file's record stamp as
 * the store had it (a record rewritten gets another), and what import resolution read of it, as
 * JSON, so that imports are resolved again without reading every record, and not at all when no
 * changed file's JSON changed. One value: the file count, the JSON's length, per file the offset
 * of its JSON (and one past the last), the JSON, then the stamps as encodeStamps writes them; all
 * in the tables' path order.
 */
export interface TableInputs {
  /** Per file, its record's stamp. */
  stamps: StampTable;
  /** Per file in path order, importingJson of it: file i's is importing[offsets[i] .. offsets[i + 1]]. */
  importing: Uint8Array;
  importingOffsets: Uint32Array;
}

/** Whether a record still has the stamp it had: then it holds the tags it held. */
export function sameRecordStamp(a: StoredStamp | undefined, b: StoredStamp | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    sameFile(a, b) &&
    a.definitions === b.definitions &&
    a.references === b.references &&
    a.skipped === b.skipped &&
    a.fileTimeoutMs === b.fileTimeoutMs &&
    a.retries === b.retries
  );
}

/** The paths of `paths` whose record's stamp in `now` is not the one in `then`: the files whose tags may have changed. */
export function changedPaths(paths: readonly string[], then: StampTable, now: StampTable): string[] {
  const before = then.match(paths).stamps;
  const after = now.match(paths).stamps;
  return paths.filter((_, i) => !sameRecordStamp(before[i], after[i]));
}

/** Per path, its stamp in `stamps` (UNMATCHED_STAMP where it has none), as encodeStamps takes them. */
export function stampsOf(paths: readonly string[], stamps: StampTable): Map<string, StoredStamp> {
  const found = stamps.match(paths).stamps;
  return new Map(paths.map((path, i) => [path, found[i] ?? UNMATCHED_STAMP]));
}

/** What a resolver reads of a file but its path (which the position stands for), as JSON. */
export function importingJson(file: ImportingFile): Buffer {
  const { imports } = file;
  return Buffer.from(JSON.stringify([file.language, file.packageName, file.definedNames, imports.modules, imports.names, imports.lines]));
}

/** The files of `paths` from their importingJson, in order; throws on JSON of another shape. */
function importingFilesOf(paths: readonly string[], parts: readonly Uint8Array[]): ImportingFile[] {
  // Joined into one array: one parse, not one a file.
  const json = parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.length).toString()).join(',');
  const tuples = JSON.parse(`[${json}]`) as [ImportingFile['language'], string, string[], string[], string[][], number[]][];
  if (tuples.length !== paths.length || !tuples.every(isImportingTuple)) throw new Error('importing JSON of another shape');
  return tuples.map(([language, packageName, definedNames, modules, names, lines], i) => ({
    path: paths[i]!,
    language,
    packageName,
    definedNames,
    imports: { modules, names, lines },
  }));
}

function isImportingTuple(tuple: unknown): boolean {
  return (
    Array.isArray(tuple) &&
    tuple.length === 6 &&
    (tuple[0] === null || typeof tuple[0] === 'string') &&
    typeof tuple[1] === 'string' &&
    Array.isArray(tuple[2]) &&
    Array.isArray(tuple[3]) &&
    Array.isArray(tuple[4]) &&
    Array.isArray(tuple[5])
  );
}

/** Table inputs put together file by file, in path order. */
export class TableInputsBuilder {
  private readonly parts: Uint8Array[] = [];

  constructor(private readonly paths: readonly string[]) {}

  add(importing: Uint8Array): void {
    this.parts.push(importing);
  }

  /** Every file as the resolvers read it, from the JSON added; throws on JSON of another shape. */
  importingFiles(): ImportingFile[] {
    return importingFilesOf(this.paths, this.parts);
  }

  /** The inputs, with each file's stamp as the store has it. */
  inputs(stamps: StampTable): TableInputs {
    if (this.parts.length !== this.paths.length) throw new Error('table inputs built for other files');
    const importingOffsets = new Uint32Array(this.paths.length + 1);
    this.parts.forEach((part, i) => {
      importingOffsets[i + 1] = importingOffsets[i]! + part.length;
    });
    return {
      stamps: StampTable.of(stampsOf(this.paths, stamps)),
      importing: Buffer.concat(this.parts),
      importingOffsets,
    };
  }
}

/** File `i`'s importing JSON. */
export function importingOf(inputs: TableInputs, i: number): Uint8Array {
  return inputs.importing.subarray(inputs.importingOffsets[i]!, inputs.importingOffsets[i + 1]!);
}

export function encodeTableInputs(inputs: TableInputs): Uint8Array {
  const stamps = inputs.stamps.encode();
  const count = new DataView(stamps.buffer, stamps.byteOffset).getUint32(0, true);
  const importingAt = 8 + 4 * (count + 1);
  const stampsAt = importingAt + inputs.importing.length;
  const out = derivedValueRoom(stampsAt + stamps.length);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(0, count, true);
  view.setUint32(4, inputs.importing.length, true);
  for (let i = 0; i <= count; i++) view.setUint32(8 + 4 * i, inputs.importingOffsets[i]!, true);
  out.set(inputs.importing, importingAt);
  out.set(stamps, stampsAt);
  return out;
}

/** The inputs encodeTableInputs wrote, copied out of `bytes`; null for bytes it did not write. */
export function decodeTableInputs(bytes: Uint8Array): TableInputs | null {
  if (bytes.length < 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const importingLength = view.getUint32(4, true);
  const importingAt = 8 + 4 * (count + 1);
  const stampsAt = importingAt + importingLength;
  if (stampsAt > bytes.length) return null;
  const importingOffsets = new Uint32Array(count + 1);
  for (let i = 0; i <= count; i++) {
    importingOffsets[i] = view.getUint32(8 + 4 * i, true);
    if (importingOffsets[i]! > importingLength || (i > 0 && importingOffsets[i]! < importingOffsets[i - 1]!)) return null;
  }
  if (importingOffsets[0] !== 0 || importingOffsets[count] !== importingLength) return null;
  // Copied out, as the table reads them in place.
  const stamps = StampTable.decode(bytes.slice(stampsAt));
  if (!stamps || stamps.keys().length !== count) return null;
  return { stamps, importing: bytes.slice(importingAt, stampsAt), importingOffsets };
}
