/** aider's edge weights (aider/repomap.py, get_ranked_tags). */

/** Name tests, made once when the tables are built. */
export const IDENT_FLAGS = {
  /** snake_case, kebab-case or camelCase of 8 characters or more. */
  longStructured: 1,
  /** Starts with `_`. */
  private: 2,
  /** A builtin or standard-library name (the task ranking's names that mean nothing: src/rank/commonNames.ts). */
  listedCommon: 4,
  /** Referenced everywhere, defined only as members here and there (likewise). */
  learnedCommon: 8,
} as const;

export const WEIGHTS = {
  mentioned: 10,
  longStructuredName: 10,
  privateName: 0.1,
  commonName: 0.1,
  /** A name defined in more files than this is common. */
  commonNameDefiners: 5,
  chatReferencer: 50,
  unreferencedSelfEdge: 0.1,
} as const;

/** aider's weight of a name before the request's factors: long structured ×10, private ×0.1, common ×0.1. */
export function nameWeight(tables: { readonly identFlags: Uint8Array; readonly definerOffsets: Int32Array }, ident: number): number {
  const flags = tables.identFlags[ident]!;
  let weight = 1;
  if (flags & IDENT_FLAGS.longStructured) weight *= WEIGHTS.longStructuredName;
  if (flags & IDENT_FLAGS.private) weight *= WEIGHTS.privateName;
  if (tables.definerOffsets[ident + 1]! - tables.definerOffsets[ident]! > WEIGHTS.commonNameDefiners) weight *= WEIGHTS.commonName;
  return weight;
}
