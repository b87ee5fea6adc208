import type { IdentifierTables } from './identifierTables.js';

/**
 * The identifier tables as one stored value: a header of section lengths, then the Float64,
 * Int32 and byte sections, then the paths, names and kinds, NUL-separated, in UTF-8. Decoding
 * is a copy and typed views: no per-item work but splitting the strings.
 */
const TABLES_MAGIC = 0x52544237;
const FLOAT_SECTIONS = ['referenceWeights', 'refOutWeights', 'selfWeights'] as const;
const INT_SECTIONS = [
  'definerOffsets',
  'definerFiles',
  'slotIdents',
  'slotTieRanks',
  'lineOffsets',
  'definitionLines',
  'definitionKinds',
  'referenceOffsets',
  'referenceFiles',
  'referenceCounts',
] as const;
const BYTE_SECTIONS = ['identFlags', 'inGraph'] as const;
const STRING_LISTS = ['paths', 'identNames', 'kindNames'] as const;
/** Magic, the sections' lengths, the string lists' lengths, the strings' bytes; then the edge count as a Float64. */
const HEADER_INTS = 1 + FLOAT_SECTIONS.length + INT_SECTIONS.length + BYTE_SECTIONS.length + STRING_LISTS.length + 1;
const EDGE_COUNT_AT = Math.ceil((HEADER_INTS * 4) / 8) * 8;
const HEADER_BYTES = EDGE_COUNT_AT + 8;

export function encodeIdentifierTables(tables: IdentifierTables): Uint8Array {
  const sections = [...FLOAT_SECTIONS.map((name) => tables[name]), ...INT_SECTIONS.map((name) => tables[name]), ...BYTE_SECTIONS.map((name) => tables[name])];
  const strings = Buffer.from(STRING_LISTS.flatMap((name) => tables[name]).join('\0'));
  const out = new Uint8Array(sections.reduce((sum, section) => sum + section.byteLength, HEADER_BYTES) + strings.length);
  new Int32Array(out.buffer, 0, HEADER_INTS).set([
    TABLES_MAGIC,
    ...sections.map((section) => section.length),
    ...STRING_LISTS.map((name) => tables[name].length),
    strings.length,
  ]);
  new Float64Array(out.buffer, EDGE_COUNT_AT, 1)[0] = tables.edgeCount;
  let at = HEADER_BYTES;
  for (const section of sections) {
    out.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), at);
    at += section.byteLength;
  }
  out.set(strings, at);
  return out;
}

/** The tables back from encodeIdentifierTables' bytes, or null when they are not such bytes. */
export function decodeIdentifierTables(stored: Uint8Array): IdentifierTables | null {
  if (stored.length < HEADER_BYTES) return null;
  // A copy at offset 0: typed views need alignment, and the store reuses its read buffer.
  const own = new Uint8Array(stored);
  const header = new Int32Array(own.buffer, 0, HEADER_INTS);
  if (header[0] !== TABLES_MAGIC) return null;
  const tables: Record<string, unknown> = { edgeCount: new Float64Array(own.buffer, EDGE_COUNT_AT, 1)[0] };
  let field = 1;
  let at = HEADER_BYTES;
  const sections = [
    ...FLOAT_SECTIONS.map((name) => ({ name, width: 8, view: (length: number) => new Float64Array(own.buffer, at, length) })),
    ...INT_SECTIONS.map((name) => ({ name, width: 4, view: (length: number) => new Int32Array(own.buffer, at, length) })),
    ...BYTE_SECTIONS.map((name) => ({ name, width: 1, view: (length: number) => own.subarray(at, at + length) })),
  ];
  for (const { name, width, view } of sections) {
    const length = header[field++]!;
    if (length < 0 || at + length * width > own.length) return null;
    tables[name] = view(length);
    at += length * width;
  }
  const listLengths = STRING_LISTS.map(() => header[field++]!);
  const stringCount = listLengths.reduce((sum, length) => sum + length, 0);
  if (own.length !== at + header[field]!) return null;
  const strings = stringCount === 0 ? [] : new TextDecoder().decode(own.subarray(at)).split('\0');
  if (strings.length !== stringCount) return null;
  let first = 0;
  STRING_LISTS.forEach((name, i) => {
    tables[name] = strings.slice(first, first + listLengths[i]!);
    first += listLengths[i]!;
  });
  const decoded = tables as unknown as IdentifierTables;
  return consistent(decoded) ? decoded : null;
}

/** The lengths that hold between sections: a stored value that breaks one is not ours. */
function consistent(tables: IdentifierTables): boolean {
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
    tables.identFlags.length === idents
  );
}
