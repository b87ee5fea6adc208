import type { IdentifierTables, TagTables } from './identifierTables.js';
import { nameWeight, WEIGHTS } from './weights.js';

/** The file graph part of the tables (see IdentifierTables for each field). */
export type FileGraphTables = Pick<IdentifierTables, 'inOffsets' | 'inSources' | 'inWeights' | 'refOutWeights' | 'selfWeights' | 'inGraph' | 'edgeCount'>;

/**
 * aider's multigraph, referencer → definer, one edge per (referencer, definer, identifier) of
 * weight nameWeight × √(references), with parallel edges summed; stored by definer (incoming
 * edges), as PageRank pulls rank into each file. Built one referencer at a time in a dense row,
 * so the multigraph itself (which common names make huge) is never held.
 */
export function buildFileGraph(tables: TagTables): FileGraphTables {
  const fileCount = tables.paths.length;
  const identCount = tables.identNames.length;
  const { definerOffsets, definerFiles, referenceOffsets, referenceFiles, referenceCounts } = tables;
  const selfWeights = new Float64Array(fileCount);
  const weights = new Float64Array(identCount);
  let edgeCount = 0;
  for (let ident = 0; ident < identCount; ident++) {
    const definers = definerOffsets[ident + 1]! - definerOffsets[ident]!;
    const referencers = referenceOffsets[ident + 1]! - referenceOffsets[ident]!;
    if (definers === 0) continue;
    if (referencers === 0) {
      for (let d = definerOffsets[ident]!; d < definerOffsets[ident + 1]!; d++) selfWeights[definerFiles[d]!]! += WEIGHTS.unreferencedSelfEdge;
      edgeCount += definers;
    } else {
      weights[ident] = nameWeight(tables, ident);
      edgeCount += definers * referencers;
    }
  }

  // References regrouped by file: (identifier, count) per referencer.
  const byFile = new Int32Array(fileCount + 1);
  for (const file of referenceFiles) byFile[file + 1]!++;
  for (let f = 0; f < fileCount; f++) byFile[f + 1]! += byFile[f]!;
  const cursor = byFile.slice(0, fileCount);
  const fileIdents = new Int32Array(referenceFiles.length);
  const fileCounts = new Int32Array(referenceFiles.length);
  for (let ident = 0; ident < identCount; ident++) {
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) {
      const at = cursor[referenceFiles[r]!]!++;
      fileIdents[at] = ident;
      fileCounts[at] = referenceCounts[r]!;
    }
  }

  // Rows by referencer, in growable edge arrays.
  const edges = { sources: new Int32Array(1024), targets: new Int32Array(1024), weights: new Float64Array(1024), count: 0 };
  const refOutWeights = new Float64Array(fileCount);
  const row = new Float64Array(fileCount);
  const touched: number[] = [];
  for (let referencer = 0; referencer < fileCount; referencer++) {
    for (let k = byFile[referencer]!; k < byFile[referencer + 1]!; k++) {
      const ident = fileIdents[k]!;
      const weight = weights[ident]! * Math.sqrt(fileCounts[k]!);
      for (let d = definerOffsets[ident]!; d < definerOffsets[ident + 1]!; d++) {
        const definer = definerFiles[d]!;
        if (row[definer] === 0) touched.push(definer);
        row[definer]! += weight;
      }
    }
    if (edges.count + touched.length > edges.sources.length) growEdges(edges, edges.count + touched.length);
    for (const target of touched) {
      edges.sources[edges.count] = referencer;
      edges.targets[edges.count] = target;
      edges.weights[edges.count++] = row[target]!;
      refOutWeights[referencer]! += row[target]!;
      row[target] = 0;
    }
    touched.length = 0;
  }

  // Transposed by a counting sort on the target: each definer's sources come out ascending.
  const inOffsets = new Int32Array(fileCount + 1);
  for (let e = 0; e < edges.count; e++) inOffsets[edges.targets[e]! + 1]!++;
  for (let f = 0; f < fileCount; f++) inOffsets[f + 1]! += inOffsets[f]!;
  const slot = inOffsets.slice(0, fileCount);
  const inSources = new Int32Array(edges.count);
  const inWeights = new Float64Array(edges.count);
  const inGraph = new Uint8Array(fileCount);
  for (let e = 0; e < edges.count; e++) {
    const at = slot[edges.targets[e]!]!++;
    inSources[at] = edges.sources[e]!;
    inWeights[at] = edges.weights[e]!;
    inGraph[edges.sources[e]!] = 1;
    inGraph[edges.targets[e]!] = 1;
  }
  for (let f = 0; f < fileCount; f++) if (selfWeights[f]! > 0) inGraph[f] = 1;
  return { inOffsets, inSources, inWeights, refOutWeights, selfWeights, inGraph, edgeCount };
}

function growEdges(edges: { sources: Int32Array; targets: Int32Array; weights: Float64Array }, needed: number): void {
  const size = Math.max(edges.sources.length * 2, needed);
  const sources = new Int32Array(size);
  const targets = new Int32Array(size);
  const weights = new Float64Array(size);
  sources.set(edges.sources);
  targets.set(edges.targets);
  weights.set(edges.weights);
  Object.assign(edges, { sources, targets, weights });
}
