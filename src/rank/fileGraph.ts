import type { IdentifierTables, TagTables } from './identifierTables.js';
import { WEIGHTS } from './weights.js';

/** The file graph part of the tables (see IdentifierTables for each field). */
export type FileGraphTables = Pick<IdentifierTables, 'selfWeights' | 'inGraph' | 'edgeCount'>;

/**
 * aider's multigraph, referencer → definer, one edge per (referencer, definer, identifier) of
 * weight nameWeight × √(references), is kept factored through its identifiers: rank flows from
 * each referencer into a name, and from the name to its definers (see pageRank.ts). Its edges
 * are never listed, merged or not: a name that n files define and m reference has n × m of
 * them, which made the merged graph grow with the square of the repository (4.4 M edges at
 * 10,000 files, about 110 M at 46,600). What holds for every request is kept here, per file;
 * the edges' weights depend on the request (see rankDefinitions.ts).
 */
export function buildFileGraph(tables: TagTables): FileGraphTables {
  const fileCount = tables.paths.length;
  const identCount = tables.identNames.length;
  const { definerOffsets, definerFiles, referenceOffsets, referenceFiles } = tables;
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
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) inGraph[referenceFiles[r]!] = 1;
    edgeCount += referencers === 0 ? definers : definers * referencers;
  }
  return { selfWeights, inGraph, edgeCount };
}
