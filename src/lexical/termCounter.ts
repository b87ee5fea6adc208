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
  begin(slots: number, slotMask: number, shift: number, stamp: number, hashes: number, counts: number): void;
  scan(text: number, length: number): void;
  size(): number;
}

/** Where the slots start: after the 256 byte classes. */
const SLOTS_AT = 256;
const SLOT_BYTES = 16;
const MIN_SLOTS = 1 << 12;
const PAGE_BYTES = 1 << 16;

/** Byte classes, as termCounter.wat reads them: only ASCII letters, digits and `_` are word bytes. */
const BYTE_CLASS = Uint8Array.from({ length: 256 }, (_, code) =>
  code >= 97 && code <= 122 ? 3 : code >= 65 && code <= 90 ? 2 : code >= 48 && code <= 57 ? 4 : code === 95 ? 1 : 0,
);

const utf8 = new TextEncoder();

/**
 * Counts the terms of UTF-8 texts by hash, in order of first sight, in termCounter.wat: an
 * open-addressing table kept across texts, whose slots count for a text only while they bear its
 * stamp, so no text clears it.
 */
export class TermCounter {
  private readonly module: TermCounterModule;
  private memory: Uint8Array;
  private slots = 0;
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

  /**
   * Starts counting a text of at most `bytes` UTF-8 bytes, scanned in at most two pieces. A term
   * takes two bytes, a whole word two parts and a break, so at most 3 terms in 4 bytes (and one
   * more per piece); the table is kept at most half full.
   */
  begin(bytes: number): void {
    const most = Math.ceil((bytes * 3) / 4) + 2;
    let slots = Math.max(MIN_SLOTS, this.slots);
    while (slots < 2 * most) slots *= 2;
    this.hashesAt = SLOTS_AT + slots * SLOT_BYTES;
    this.countsAt = this.hashesAt + 4 * most;
    this.textAt = this.countsAt + 4 * most;
    this.ensureMemory(this.textAt + bytes + 1);
    if (slots !== this.slots || this.stamp === 0x7fffffff) {
      this.memory.fill(0, SLOTS_AT, this.hashesAt);
      this.slots = slots;
      this.stamp = 0;
    }
    this.module.begin(SLOTS_AT, slots - 1, 32 - Math.log2(slots), ++this.stamp, this.hashesAt, this.countsAt);
  }

  addBytes(bytes: Uint8Array): void {
    this.memory.set(bytes, this.textAt);
    this.scan(bytes.length);
  }

  addText(text: string): void {
    this.scan(utf8.encodeInto(text, this.memory.subarray(this.textAt)).written);
  }

  /** The counts since begin(), copied out. */
  result(): TermCounts {
    const size = this.module.size();
    const { buffer } = this.memory;
    return { hashes: new Int32Array(buffer, this.hashesAt, size).slice(), counts: new Int32Array(buffer, this.countsAt, size).slice() };
  }

  private scan(length: number): void {
    this.memory[this.textAt + length] = 0;
    this.module.scan(this.textAt, length);
  }

  private ensureMemory(bytes: number): void {
    const missing = bytes - this.memory.length;
    if (missing <= 0) return;
    this.module.memory.grow(Math.ceil(missing / PAGE_BYTES));
    this.memory = new Uint8Array(this.module.memory.buffer);
  }
}
