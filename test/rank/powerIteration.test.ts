import { describe, expect, test } from 'vitest';
import type { FileGraph } from '../../dist/src/rank/pageRank.js';
import { PowerIteration } from '../../dist/src/rank/powerIteration.js';

/** The WebAssembly power iteration makes, round by round, the bits the JavaScript loop it replaced made. */

/** The loop powerIteration.wat replaced, as it was in src/rank/pageRank.ts: the reference. */
function iterate(graph: FileGraph, p: Float64Array, alpha: number, x: Float64Array, next: Float64Array): number {
  const { referenceOffsets, referenceFiles, referenceWeights, definerOffsets, definerFiles, sourceScales, selfWeights, outWeights } = graph;
  const fileCount = x.length;
  const share = new Float64Array(fileCount);
  const inflow = new Float64Array(fileCount);
  let danglingMass = 0;
  for (let file = 0; file < fileCount; file++) {
    const out = outWeights[file]!;
    if (out === 0) danglingMass += x[file]!;
    else {
      share[file] = (x[file]! * sourceScales[file]!) / out;
      inflow[file] = (x[file]! * selfWeights[file]!) / out;
    }
  }
  for (let ident = 0; ident < definerOffsets.length - 1; ident++) {
    if (definerOffsets[ident] === definerOffsets[ident + 1]) continue;
    let carried = 0;
    for (let r = referenceOffsets[ident]!; r < referenceOffsets[ident + 1]!; r++) carried += share[referenceFiles[r]!]! * referenceWeights[r]!;
    if (carried === 0) continue;
    for (let d = definerOffsets[ident]!; d < definerOffsets[ident + 1]!; d++) inflow[definerFiles[d]!]! += carried;
  }
  if (graph.links) {
    const { offsets, targets, weight } = graph.links;
    for (let file = 0; file < fileCount; file++) {
      const carried = share[file]! * weight;
      if (carried === 0) continue;
      for (let at = offsets[file]!; at < offsets[file + 1]!; at++) inflow[targets[at]!]! += carried;
    }
  }
  let change = 0;
  for (let file = 0; file < fileCount; file++) {
    const value = alpha * (inflow[file]! + danglingMass * p[file]!) + (1 - alpha) * p[file]!;
    change += Math.abs(value - x[file]!);
    next[file] = value;
  }
  return change;
}

/** A graph of `files` files and `idents` names drawn from a fixed seed: CSR as the tables hold it, links when asked. */
function randomGraph(files: number, idents: number, withLinks: boolean): FileGraph {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const csr = (rows: number, most: number) => {
    const offsets = new Int32Array(rows + 1);
    const targets: number[] = [];
    for (let row = 0; row < rows; row++) {
      const count = Math.floor(random() * most);
      for (let k = 0; k < count; k++) targets.push(Math.floor(random() * files));
      offsets[row + 1] = targets.length;
    }
    return { offsets, targets: Int32Array.from(targets) };
  };
  const references = csr(idents, 6);
  const definers = csr(idents, 3);
  const referenceWeights = Float64Array.from(references.targets, () => 0.1 + random() * 10);
  const selfWeights = Float64Array.from({ length: files }, () => (random() < 0.3 ? random() : 0));
  const sourceScales = Float64Array.from({ length: files }, () => (random() < 0.01 ? 50 : 1));
  const links = withLinks ? { ...csr(files, 4), weight: 2 } : undefined;
  const outWeights = new Float64Array(files);
  for (let ident = 0; ident < idents; ident++) {
    const definerCount = definers.offsets[ident + 1]! - definers.offsets[ident]!;
    for (let r = references.offsets[ident]!; r < references.offsets[ident + 1]!; r++) {
      outWeights[references.targets[r]!]! += referenceWeights[r]! * definerCount;
    }
  }
  for (let file = 0; file < files; file++) {
    const linked = links ? links.weight * (links.offsets[file + 1]! - links.offsets[file]!) : 0;
    // About one file in ten has no out-edge at all: dangling.
    outWeights[file] = random() < 0.1 ? 0 : sourceScales[file]! * (outWeights[file]! + linked) + selfWeights[file]!;
  }
  return {
    referenceOffsets: references.offsets,
    referenceFiles: references.targets,
    referenceWeights,
    definerOffsets: definers.offsets,
    definerFiles: definers.targets,
    sourceScales,
    selfWeights,
    outWeights,
    inGraph: new Uint8Array(files).fill(1),
    links,
  };
}

const bits = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

describe('PageRank’s power iteration in WebAssembly', () => {
  test.each([
    ['without links, 40 files', 40, 100, false],
    ['with links, 40 files', 40, 100, true],
    // Past the module's first 64 KB page: its memory grows.
    ['with links, 20,000 files', 20_000, 60_000, true],
  ])('%s: each round the same ranks, bit for bit, and the same change, as the JavaScript loop', (_, files, idents, withLinks) => {
    const graph = randomGraph(files, idents, withLinks);
    const p = Float64Array.from({ length: files }, (_, file) => (file % 7 === 0 ? 3 : 1) / files);
    let x = new Float64Array(files).fill(1 / files);
    let next = new Float64Array(files);
    const iteration = new PowerIteration(graph, p, x.slice());
    for (let round = 0; round < 12; round++) {
      const change = iterate(graph, p, 0.85, x, next);
      [x, next] = [next, x];
      expect(iteration.step(0.85)).toBe(change);
      expect(bits(iteration.ranks()).equals(bits(x))).toBe(true);
    }
  });
});
