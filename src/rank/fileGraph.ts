import type { IdentifierTables, TagTables } from './identifierTables.js';
import { nameWeight, WEIGHTS } from './weights.js';

/** The file graph part of the tables (see IdentifierTables for each field). */
export type FileGraphTables = Pick<IdentifierTables, 'referenceWeights' | 'refOutWeights' | 'selfWeights' | 'inGraph' | 'edgeCount'>;

/**
 * aider's multigraph, referencer → definer, one edge per (referencer, definer, identifier) of
 * weight nameWeight × √(references), is kept factored through its identifiers: rank flows from
 * each referencer into a name, and from the name to its definers (see pageRank.ts). Its edges
 * are never listed, merged or not: a name that n files define and m reference has n × m of
 * them, which made the merged graph grow with the square of the repository (4.4 M edges at
 * 10,000 files, about 110 M at 46,600). Kept here: the weights before a request's factors
 * (see rankDefinitions.ts), per reference slot and per file.
 */
export function buildFileGraph(tables: TagTables): FileGraphTables {
  const fileCount = tables.paths.length;
  const identCount = tables.identNames.length;
  const { definerOffsets, definerFiles, referenceOffsets, referenceFiles, referenceCounts } = tables;
  const referenceWeights = new Float64Array(referenceFiles.length);
  const refOutWeights = new Float64Array(fileCount);
  const selfWeights = new Float64Array(fileCount);
  const inGraph = new Uint8Array(fileCount);
  let edgeCount = 0;
  for (let ident = 0; ident < identCount; ident++) {
    const definers = definerOffsets[ident + 1]! - definerOffsets[ident]!;
    const referencers = referenceOffsets[ident + 1]! - referenceOffsets[ident]!;
    if (definers === 0) continue;
    for (let d = definerOffsets[ident]!; d < definerOffsets[ident + 1]!; d++) {
      inGraph[definerFiles[d]!] = 1;
      if (referencers === 0) selfWeights[definerFiles[d]!]! += WEIGHTS.unreferencedSelfEdge;
    }
    const weight = nameWeight(tables, ident);
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) {
      const file = referenceFiles[r]!;
      referenceWeights[r] = weight * Math.sqrt(referenceCounts[r]!);
      refOutWeights[file]! += referenceWeights[r]! * definers;
      inGraph[file] = 1;
    }
    edgeCount += referencers === 0 ? definers : definers * referencers;
  }
  return { referenceWeights, refOutWeights, selfWeights, inGraph, edgeCount };
}
