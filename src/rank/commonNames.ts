import { IDENT_FLAGS } from './weights.js';

/**
 * Names that mean nothing: a reference to `len`, `toString` or `Formatter` names a builtin or a
 * standard-library item far more often than the repository's own definition of the same name,
 * so its edges into the repository's definers are weak. Two ways to tell, measured apart in
 * bench/quality: names of the languages' builtins and standard libraries (listed), and names the
 * tags give away (learned): referenced by many files but defined only as members here and there.
 */

/** What a common name's edges are multiplied by. */
const COMMON_NAME_FACTOR = 0.1;
/** A learned common name is referenced by at least this share of the files, and by at least MIN_REFERENCERS. */
const REFERENCER_SHARE = 0.05;
const MIN_REFERENCERS = 10;
/** …and referenced by at least this many files per file defining it. */
const REFERENCERS_PER_DEFINER = 10;
const MEMBER_KINDS = new Set(['method', 'field', 'property', 'constructor']);

/** Builtins and standard-library names that collide with repository definitions, per language family, merged: a name is common in all. */
const LISTED = new Set(
  [
    // Python builtins and the dunder protocol's everyday names.
    'len str int float bool bytes dict list set tuple object type super print repr hash iter next range open format isinstance issubclass getattr setattr hasattr delattr callable sorted reversed enumerate zip map filter min max sum any all abs round id vars dir input',
    'get items keys values append extend update pop copy clear remove insert split join strip replace startswith endswith lower upper encode decode read write close',
    // JavaScript / TypeScript: Object, Array, String, Promise, console.
    'toString valueOf hasOwnProperty defineProperty defineProperties getPrototypeOf setPrototypeOf create assign freeze keys entries isArray push slice splice indexOf includes forEach reduce concat find some every sort reverse shift unshift length then catch finally resolve reject apply call bind log warn error info debug has add delete constructor prototype',
    // Go builtins and the interfaces every package meets.
    'make new cap copy panic recover println error string Error String Len Less Swap Close Read Write',
    // Rust std traits and their methods.
    'from into as_ref as_mut clone fmt default eq ne cmp partial_cmp drop deref deref_mut borrow to_string to_owned as_bytes as_str unwrap expect is_empty is_some is_none ok err Ok Err Some None Box Vec String Option Result Formatter Display Debug Default Clone Iterator',
    // Java's Object and boxed types, and the one-letter type parameters.
    'equals hashCode getClass compareTo Object Integer Long Double Boolean Character List Map Set HashMap ArrayList size put T E K V R',
  ]
    .join(' ')
    .split(' '),
);

export interface CommonNameSignals {
  listed: boolean;
  learned: boolean;
}

/** What of the ranking tables (identifierTables.ts) a name's commonness is told from. */
interface CommonNameTables {
  readonly paths: readonly string[];
  readonly identNames: readonly string[];
  readonly definerOffsets: Int32Array;
  readonly referenceOffsets: Int32Array;
  readonly lineOffsets: Int32Array;
  readonly definitionKinds: Int32Array;
  readonly kindNames: readonly string[];
}

/** IDENT_FLAGS' listedCommon and learnedCommon of each identifier, made when the tables are built. */
export function commonNameFlags(tables: CommonNameTables): Uint8Array {
  const { identNames, definerOffsets, referenceOffsets, lineOffsets, definitionKinds, kindNames } = tables;
  const fileCount = tables.paths.length;
  const memberKind = Uint8Array.from(kindNames, (kind) => (MEMBER_KINDS.has(kind) ? 1 : 0));
  const flags = new Uint8Array(identNames.length);
  for (let ident = 0; ident < identNames.length; ident++) {
    const definers = definerOffsets[ident + 1]! - definerOffsets[ident]!;
    if (definers === 0) continue;
    if (LISTED.has(identNames[ident]!)) flags[ident]! |= IDENT_FLAGS.listedCommon;
    const referencers = referenceOffsets[ident + 1]! - referenceOffsets[ident]!;
    if (referencers < Math.max(MIN_REFERENCERS, REFERENCER_SHARE * fileCount) || referencers < REFERENCERS_PER_DEFINER * definers) continue;
    let members = true;
    for (let slot = definerOffsets[ident]!; slot < definerOffsets[ident + 1]! && members; slot++) {
      for (let at = lineOffsets[slot]!; at < lineOffsets[slot + 1]!; at++) if (!memberKind[definitionKinds[at]!]) members = false;
    }
    if (members) flags[ident]! |= IDENT_FLAGS.learnedCommon;
  }
  return flags;
}

/** Per identifier, the factor on its edges: COMMON_NAME_FACTOR for a common name, else 1; null when no name is common. */
export function commonNameFactors(tables: { readonly identFlags: Uint8Array }, signals: CommonNameSignals): Float64Array | null {
  const mask = (signals.listed ? IDENT_FLAGS.listedCommon : 0) | (signals.learned ? IDENT_FLAGS.learnedCommon : 0);
  if (mask === 0) return null;
  const { identFlags } = tables;
  let factors: Float64Array | null = null;
  for (let ident = 0; ident < identFlags.length; ident++) {
    if (!(identFlags[ident]! & mask)) continue;
    factors ??= new Float64Array(identFlags.length).fill(1);
    factors[ident] = COMMON_NAME_FACTOR;
  }
  return factors;
}
