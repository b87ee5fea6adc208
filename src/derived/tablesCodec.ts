import type { Postings } from '../lexical/postings.js';
import type { IdentifierTables } from '../rank/identifierTables.js';
import { type LexicalTables, postingsOf } from '../rank/lexicalTables.js';
import { type DerivedRead, derivedValueRoom } from '../store/tagStore.js';

/**
 * The identifier tables, and the lexical tables, each as one stored value: a header of section
 * lengths, then the Float64, Int32 and byte sections, then the string lists, NUL-separated, in
 * UTF-8. Decoding is a copy and typed views: no per-item work but splitting the strings.
 */
/** Bump on any change to the tables' layout or to what they are built from (import resolution's rules too): stored tables are rebuilt. */
export const TABLES_MAGIC = 0x5254423d;
/** The same for the lexical tables (term counting's rules too). */
export const LEXICAL_MAGIC = 0x5845423d;

/** What encoding collects, field by field: the header's lengths, the sections' bytes, the string lists. */
interface Encoded {
  lengths: number[];
  sections: Uint8Array[];
  strings: (readonly string[])[];
  scalar: number;
}

/** How one field is stored: as a typed section, a string list, or in the header. */
interface FieldCodec<T> {
  /** The header ints it takes: a section's or a list's length. */
  readonly lengths: 0 | 1;
  write(value: T, encoded: Encoded): void;
  /** Null when the bytes do not hold it. */
  read(reader: TablesReader): T | null;
}

function typedSection<T extends Float64Array | Int32Array | Uint8Array>(
  width: number,
  view: (buffer: ArrayBufferLike, at: number, length: number) => T,
): FieldCodec<T> {
  return {
    lengths: 1,
    write(section, encoded) {
      encoded.lengths.push(section.length);
      encoded.sections.push(new Uint8Array(section.buffer, section.byteOffset, section.byteLength));
    },
    read: (reader) => reader.section(width, view),
  };
}

const FLOAT64: FieldCodec<Float64Array> = typedSection(8, (buffer, at, length) => new Float64Array(buffer, at, length));
const INT32: FieldCodec<Int32Array> = typedSection(4, (buffer, at, length) => new Int32Array(buffer, at, length));
const BYTES: FieldCodec<Uint8Array> = typedSection(1, (buffer, at, length) => new Uint8Array(buffer, at, length));
const STRINGS: FieldCodec<string[]> = {
  lengths: 1,
  write(list, encoded) {
    encoded.lengths.push(list.length);
    encoded.strings.push(list);
  },
  read: (reader) => reader.stringList(),
};
/** The one number a value keeps in its header, as a Float64. */
const SCALAR: FieldCodec<number> = {
  lengths: 0,
  write(value, encoded) {
    encoded.scalar = value;
  },
  read: (reader) => reader.scalar(),
};

type Fields<T> = { readonly [K in keyof T]: FieldCodec<T[K]> };

/**
 * Every field of the tables, in the order stored: the widest sections first, so that every view
 * is aligned, then the string lists. A field the tables gain must be added here to compile.
 */
const IDENTIFIER_FIELDS: Fields<IdentifierTables> = {
  referenceWeights: FLOAT64,
  refOutWeights: FLOAT64,
  selfWeights: FLOAT64,
  definerOffsets: INT32,
  definerFiles: INT32,
  slotIdents: INT32,
  slotTieRanks: INT32,
  lineOffsets: INT32,
  definitionLines: INT32,
  definitionKinds: INT32,
  referenceOffsets: INT32,
  referenceFiles: INT32,
  referenceCounts: INT32,
  importOffsets: INT32,
  importTargets: INT32,
  identFlags: BYTES,
  fileRoles: BYTES,
  inGraph: BYTES,
  paths: STRINGS,
  identNames: STRINGS,
  kindNames: STRINGS,
  edgeCount: SCALAR,
};

/** The lexical tables as stored: bound to the paths they are over by their CRC-32 (see DerivedTables.lexicalTables). */
export interface StoredLexicalTables extends LexicalTables {
  pathsCrc: number;
}

const LEXICAL_FIELDS: Fields<StoredLexicalTables> = {
  textTermHashes: INT32,
  textTermOffsets: INT32,
  textTermFiles: INT32,
  textTermCounts: INT32,
  textFileTotals: INT32,
  nameTermHashes: INT32,
  nameTermOffsets: INT32,
  nameTermFiles: INT32,
  nameTermCounts: INT32,
  nameFileTotals: INT32,
  pathTermHashes: INT32,
  pathTermOffsets: INT32,
  pathTermFiles: INT32,
  pathTermCounts: INT32,
  pathFileTotals: INT32,
  pathsCrc: SCALAR,
};

/** How a kind of tables is stored: its magic, its fields, and the lengths that hold between them. */
class TablesCodec<T extends object> {
  private readonly names: (keyof T)[];
  /** Magic, the sections' and string lists' lengths, the strings' bytes; then the scalar as a Float64. */
  private readonly headerInts: number;
  private readonly scalarAt: number;
  private readonly headerBytes: number;

  constructor(
    private readonly magic: number,
    private readonly fields: Fields<T>,
    private readonly consistent: (tables: T) => boolean,
  ) {
    this.names = Object.keys(fields) as (keyof T)[];
    this.headerInts = 1 + this.names.reduce((sum, name) => sum + fields[name].lengths, 0) + 1;
    this.scalarAt = Math.ceil((this.headerInts * 4) / 8) * 8;
    this.headerBytes = this.scalarAt + 8;
  }

  encode(tables: T): Uint8Array {
    const { headerBytes, headerInts } = this;
    const encoded: Encoded = { lengths: [], sections: [], strings: [], scalar: 0 };
    for (const name of this.names) this.fields[name].write(tables[name], encoded);
    // Joined list by list: flat() over 118,000 strings took 18 ms.
    const strings = Buffer.from(
      encoded.strings
        .filter((list) => list.length > 0)
        .map((list) => list.join('\0'))
        .join('\0'),
    );
    // Not zero-filled but the header: every other byte is a section's or a string's.
    const length = encoded.sections.reduce((sum, section) => sum + section.byteLength, headerBytes) + strings.length;
    const out = derivedValueRoom(length).fill(0, 0, headerBytes);
    new Int32Array(out.buffer, out.byteOffset, headerInts).set([this.magic, ...encoded.lengths, strings.length]);
    new Float64Array(out.buffer, out.byteOffset + this.scalarAt, 1)[0] = encoded.scalar;
    let at = headerBytes;
    for (const section of encoded.sections) {
      out.set(section, at);
      at += section.byteLength;
    }
    out.set(strings, at);
    return out;
  }

  /** The tables back from encode's bytes, or null when they are not such bytes; `owned` bytes (see DerivedRead) become theirs. */
  decode(stored: Uint8Array, read: DerivedRead): T | null {
    if (stored.length < this.headerBytes) return null;
    // Typed views need alignment, and bytes not owned are the store's to reuse: else copied.
    const own = read.owned && stored.byteOffset % 8 === 0 ? stored : Buffer.allocUnsafeSlow(stored.length);
    if (own !== stored) own.set(stored);
    const header = new Int32Array(own.buffer, own.byteOffset, this.headerInts);
    if (header[0] !== this.magic) return null;
    const reader = new TablesReader(own, header, this.headerBytes, this.scalarAt);
    // Filled field by field below; returned only once every field is.
    const tables = {} as T;
    for (const name of this.names) {
      const value = this.fields[name].read(reader);
      if (value === null) return null;
      tables[name] = value;
    }
    // Spread into a new object: filled by keyed stores, V8 keeps `tables` as a dictionary, and every
    // loop over a field (ranking's, a patch's) paid a hash lookup per read.
    return reader.tookEveryString() && this.consistent(tables) ? { ...tables } : null;
  }
}

const IDENTIFIER_CODEC = new TablesCodec(TABLES_MAGIC, IDENTIFIER_FIELDS, identifierTablesConsistent);
const LEXICAL_CODEC = new TablesCodec(LEXICAL_MAGIC, LEXICAL_FIELDS, lexicalTablesConsistent);

export function encodeIdentifierTables(tables: IdentifierTables): Uint8Array {
  return IDENTIFIER_CODEC.encode(tables);
}

/** The tables back from encodeIdentifierTables' bytes, or null when they are not such bytes; `owned` bytes (see DerivedRead) become theirs. */
export function decodeIdentifierTables(stored: Uint8Array, read: DerivedRead = { owned: false }): IdentifierTables | null {
  return IDENTIFIER_CODEC.decode(stored, read);
}

export function encodeLexicalTables(tables: StoredLexicalTables): Uint8Array {
  return LEXICAL_CODEC.encode(tables);
}

/** As decodeIdentifierTables, for encodeLexicalTables' bytes. */
export function decodeLexicalTables(stored: Uint8Array, read: DerivedRead = { owned: false }): StoredLexicalTables | null {
  return LEXICAL_CODEC.decode(stored, read);
}

/** Reads the fields in the order they were written: each takes its length from the header, then its bytes. */
class TablesReader {
  private lengthAt = 1;
  private at: number;
  /** Every string list's strings, decoded at once when the first is read. */
  private strings: { text: string; parts: string[] } | null = null;
  private stringAt = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly header: Int32Array,
    headerBytes: number,
    private readonly scalarAt: number,
  ) {
    this.at = headerBytes;
  }

  section<T>(width: number, view: (buffer: ArrayBufferLike, at: number, length: number) => T): T | null {
    const length = this.header[this.lengthAt++]!;
    if (length < 0 || this.at + length * width > this.bytes.length) return null;
    const section = view(this.bytes.buffer, this.bytes.byteOffset + this.at, length);
    this.at += length * width;
    return section;
  }

  stringList(): string[] | null {
    const length = this.header[this.lengthAt++]!;
    if (!this.strings) {
      if (this.bytes.length !== this.at + this.header[this.header.length - 1]!) return null;
      const text = new TextDecoder().decode(this.bytes.subarray(this.at));
      this.strings = { text, parts: text.split('\0') };
    }
    if (length < 0 || this.stringAt + length > this.strings.parts.length) return null;
    this.stringAt += length;
    return this.strings.parts.slice(this.stringAt - length, this.stringAt);
  }

  scalar(): number {
    return new Float64Array(this.bytes.buffer, this.bytes.byteOffset + this.scalarAt, 1)[0]!;
  }

  /** Whether the lists took every string there is: an empty text holds none, or one empty string. */
  tookEveryString(): boolean {
    // Tables with no string list: then no bytes follow the sections.
    if (!this.strings) return this.header[this.header.length - 1] === 0 && this.bytes.length === this.at;
    return this.stringAt === this.strings.parts.length || (this.stringAt === 0 && this.strings.text === '');
  }
}

/** The lengths that hold between sections: a stored value that breaks one is not ours. */
function identifierTablesConsistent(tables: IdentifierTables): boolean {
  const files = tables.paths.length;
  const idents = tables.identNames.length;
  const slots = tables.definerFiles.length;
  return (
    tables.definerOffsets.length === idents + 1 &&
    tables.definerOffsets[idents] === slots &&
    tables.slotIdents.length === slots &&
    tables.slotTieRanks.length === slots &&
    tables.lineOffsets.length === slots + 1 &&
    tables.lineOffsets[slots] === tables.definitionLines.length &&
    tables.definitionKinds.length === tables.definitionLines.length &&
    tables.referenceOffsets.length === idents + 1 &&
    tables.referenceOffsets[idents] === tables.referenceFiles.length &&
    tables.referenceCounts.length === tables.referenceFiles.length &&
    tables.referenceWeights.length === tables.referenceFiles.length &&
    tables.refOutWeights.length === files &&
    tables.selfWeights.length === files &&
    tables.inGraph.length === files &&
    tables.identFlags.length === idents &&
    tables.fileRoles.length === files &&
    tables.importOffsets.length === files + 1 &&
    tables.importOffsets[files] === tables.importTargets.length
  );
}

function lexicalTablesConsistent(tables: LexicalTables): boolean {
  const files = tables.textFileTotals.length;
  return (
    postingsConsistent(postingsOf(tables, 'text'), files) &&
    postingsConsistent(postingsOf(tables, 'names'), files) &&
    postingsConsistent(postingsOf(tables, 'path'), files)
  );
}

function postingsConsistent(postings: Postings, files: number): boolean {
  const terms = postings.hashes.length;
  return (
    postings.offsets.length === terms + 1 &&
    postings.offsets[terms] === postings.files.length &&
    postings.counts.length === postings.files.length &&
    postings.fileTotals.length === files
  );
}
