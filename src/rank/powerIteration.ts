import { readFileSync } from 'node:fs';
import { powerIterationWasmFile } from '../packageFiles.js';
import type { FileGraph } from './pageRank.js';

/** The part of the WebAssembly API used here: TypeScript declares it only with the DOM's types. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

/** The exports of powerIteration.wat. */
interface PowerIterationModule {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  iterate(
    fileCount: number,
    identCount: number,
    alpha: number,
    x: number,
    next: number,
    share: number,
    inflow: number,
    p: number,
    outWeights: number,
    sourceScales: number,
    selfWeights: number,
    referenceOffsets: number,
    referenceFiles: number,
    referenceWeights: number,
    definerOffsets: number,
    definerFiles: number,
    linkOffsets: number,
    linkTargets: number,
    linkWeight: number,
  ): number;
}

const PAGE_BYTES = 1 << 16;
/** Compiled once per process: a map ranks once or twice. */
let compiled: object | null = null;

/**
 * PageRank's power iteration in powerIteration.wat, over copies of the graph in its memory: in a
 * fresh process V8 runs the JavaScript loop interpreted until it replaces it on the stack (an
 * edit's map on mixed-500: 25 ms of its 34 ms PageRank), WebAssembly compiled from the first
 * call. The same operations in the same order as the loop it replaced: the same ranks, bit for bit.
 */
export class PowerIteration {
  private readonly module: PowerIterationModule;
  private readonly fileCount: number;
  private readonly identCount: number;
  /** Where each array is in the module's memory (0 for links there are none of). */
  private readonly at: Record<
    'p' | 'share' | 'inflow' | 'out' | 'scales' | 'self' | 'weights' | 'refOffsets' | 'refFiles' | 'defOffsets' | 'defFiles' | 'linkOffsets' | 'linkTargets',
    number
  >;
  private readonly linkWeight: number;
  private x: number;
  private next: number;

  /** `p` the personalization, `x` the starting ranks, both per file. */
  constructor(graph: FileGraph, p: Float64Array, x: Float64Array) {
    compiled ??= new WebAssembly.Module(readFileSync(powerIterationWasmFile()));
    this.module = new WebAssembly.Instance(compiled).exports as unknown as PowerIterationModule;
    this.fileCount = x.length;
    this.identCount = graph.definerOffsets.length - 1;
    const { links } = graph;
    this.linkWeight = links?.weight ?? 0;
    const room = (bytes: number) => Math.ceil(bytes / 8) * 8;
    const perFile = room(8 * this.fileCount);
    const arrays: (Float64Array | Int32Array)[] = [
      p,
      x,
      graph.outWeights,
      graph.sourceScales,
      graph.selfWeights,
      graph.referenceWeights,
      graph.referenceOffsets,
      graph.referenceFiles,
      graph.definerOffsets,
      graph.definerFiles,
      ...(links ? [links.offsets, links.targets] : []),
    ];
    // Each array 8-byte aligned after the first 8 bytes: offset 0 stands for no links.
    const bytes = 8 + arrays.reduce((sum, array) => sum + room(array.byteLength), 0) + 3 * perFile;
    const { memory } = this.module;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE_BYTES));
    const heap = new Uint8Array(memory.buffer);
    let free = 8;
    const [pAt, xAt, out, scales, self, weights, refOffsets, refFiles, defOffsets, defFiles, linkOffsets = 0, linkTargets = 0] = arrays.map((array) => {
      heap.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), free);
      free += room(array.byteLength);
      return free - room(array.byteLength);
    }) as number[];
    this.x = xAt!;
    this.next = free;
    const share = free + perFile;
    const inflow = share + perFile;
    this.at = {
      p: pAt!,
      share,
      inflow,
      out: out!,
      scales: scales!,
      self: self!,
      weights: weights!,
      refOffsets: refOffsets!,
      refFiles: refFiles!,
      defOffsets: defOffsets!,
      defFiles: defFiles!,
      linkOffsets,
      linkTargets,
    };
  }

  /** One iteration, x → next, which becomes x; returns the L1 change. */
  step(alpha: number): number {
    const { at } = this;
    const change = this.module.iterate(
      this.fileCount,
      this.identCount,
      alpha,
      this.x,
      this.next,
      at.share,
      at.inflow,
      at.p,
      at.out,
      at.scales,
      at.self,
      at.refOffsets,
      at.refFiles,
      at.weights,
      at.defOffsets,
      at.defFiles,
      at.linkOffsets,
      at.linkTargets,
      this.linkWeight,
    );
    [this.x, this.next] = [this.next, this.x];
    return change;
  }

  /** The ranks the last step made, copied out. */
  ranks(): Float64Array {
    return new Float64Array(this.module.memory.buffer.slice(this.x, this.x + 8 * this.fileCount));
  }
}
