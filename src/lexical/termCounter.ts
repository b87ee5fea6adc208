import { readFileSync } from 'node:fs';
import { termCounterWasmFile } from '../packageFiles.js';
import type { TermCounts } from './terms.js';

/** The part of the WebAssembly API used here: TypeScript declares it only with the DOM's types. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

/** The exports of termCounter.wat. */
interface TermCounterModule {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  begin(slots: number, slotMask: number, shift: number, stamp: number, hashes: number, counts: number, room: number): void;
  scan(text: number, length: number): void;
  size(): number;
  full(): number;
}

/** Where the slots start: after the 256 byte classes. */
const SLOTS_AT = 256;
const SLOT_BYTES = 16;
const MIN_SLOTS = 1 << 10;
const PAGE_BYTES = 1 << 16;
/**
 * Room made for a text's distinct terms, per byte: over the seven slices, a file has 0.04 of
 * them per byte at the median, 0.14 at the 99th percentile and at most 0.17, so about one text
 * in a hundred is counted again with more room; a table sized for the most a text could have
 * (3 in 4 bytes) spilled out of the caches on every file after a big one.
 */
const ROOM_PER_BYTE = 1 / 8;

/** Byte classes, as termCounter.wat reads them: only ASCII letters, digits and `_` are word bytes. */
const BYTE_CLASS = Uint8Array.from({ length: 256 }, (_, code) =>
  code >= 97 && code <= 122 ? 3 : code >= 65 && code <= 90 ? 2 : code >= 48 && code <= 57 ? 4 : code === 95 ? 1 : 0,
);

const utf8 = new TextEncoder();

/**
 * Counts the terms of UTF-8 texts by hash, in order of first sight, in termCounter.wat: an
 * open-addressing table at most half full, whose slots count for a text only while they bear its
 * stamp, so no text clears it.
 */
export class TermCounter {
  private readonly module: TermCounterModule;
  private memory: Uint8Array;
  /** Slots zeroed so far; a text uses as many of them as its room needs. */
  private slotCapacity = 0;
  private stamp = 0;
  private hashesAt = 0;
  private countsAt = 0;
  private textAt = 0;

  constructor() {
    const compiled = new WebAssembly.Module(readFileSync(termCounterWasmFile()));
    this.module = new WebAssembly.Instance(compiled).exports as unknown as TermCounterModule;
    this.memory = new Uint8Array(this.module.memory.buffer);
    this.memory.set(BYTE_CLASS);
  }

  /** The terms of `pieces` scanned one after another, as if joined by line breaks; a string is scanned as UTF-8. */
  count(pieces: readonly (string | Uint8Array)[]): TermCounts {
    const bytes = pieces.reduce((sum, piece) => sum + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length), 0);
    for (let room = Math.ceil(bytes * ROOM_PER_BYTE) + 16; ; room *= 4) {
      this.begin(bytes, room);
      for (const piece of pieces) this.scan(piece);
      if (!this.module.full()) return this.result();
    }
  }

  /** Lays out memory for a text of `bytes` bytes with `room` distinct terms. */
  private begin(bytes: number, room: number): void {
    let slots = MIN_SLOTS;
    while (slots < 2 * room) slots *= 2;
    const capacity = Math.max(slots, this.slotCapacity);
    this.hashesAt = SLOTS_AT + capacity * SLOT_BYTES;
    this.countsAt = this.hashesAt + 4 * room;
    this.textAt = this.countsAt + 4 * room;
    this.ensureMemory(this.textAt + bytes + 1);
    // Slots past the old capacity held other data, which could pass for a stamp.
    if (capacity !== this.slotCapacity || this.stamp === 0x7fffffff) {
      this.memory.fill(0, SLOTS_AT, this.hashesAt);
      this.slotCapacity = capacity;
      this.stamp = 0;
    }
    this.module.begin(SLOTS_AT, slots - 1, 32 - Math.log2(slots), ++this.stamp, this.hashesAt, this.countsAt, room);
  }

  private scan(piece: string | Uint8Array): void {
    let length: number;
    if (typeof piece === 'string') {
      length = utf8.encodeInto(piece, this.memory.subarray(this.textAt)).written;
    } else {
      this.memory.set(piece, this.textAt);
      length = piece.length;
    }
    this.memory[this.textAt + length] = 0;
    this.module.scan(this.textAt, length);
  }

  private result(): TermCounts {
    const size = this.module.size();
    const { buffer } = this.memory;
    return { hashes: new Int32Array(buffer, this.hashesAt, size).slice(), counts: new Int32Array(buffer, this.countsAt, size).slice() };
  }

  private ensureMemory(bytes: number): void {
    const missing = bytes - this.memory.length;
    if (missing <= 0) return;
    this.module.memory.grow(Math.ceil(missing / PAGE_BYTES));
    this.memory = new Uint8Array(this.module.memory.buffer);
  }
}
