import type { TermCounts } from './terms.js';

/** 2^32 / φ: spreads nearby hashes over the table's top bits. */
const GOLDEN = 0x9e3779b1;

/**
 * Counts 32-bit term hashes in order of first sight, in an open-addressing table kept across
 * files: a Map would box every hash outside V8's small-integer range, and a worker counts the
 * terms of every file it parses.
 */
export class TermCounter {
  private slotHashes = new Int32Array(1 << 12);
  /** Index + 1 of each slot's term in `counted`, valid only while its stamp is the current file's. */
  private slotTerms = new Int32Array(1 << 12);
  private slotStamps = new Int32Array(1 << 12);
  /** Slots are picked by the top bits of a multiplicative hash: 32 − log2(slots). */
  private shift = 20;
  private stamp = 0;
  private counted: TermCounts = { hashes: [], counts: [] };

  /** Starts counting a new text; the last one's counts stay with whoever took them. */
  begin(): void {
    this.counted = { hashes: [], counts: [] };
    if (++this.stamp === 0x7fffffff) {
      this.slotStamps.fill(0);
      this.stamp = 1;
    }
  }

  add(hash: number): void {
    const mask = this.slotHashes.length - 1;
    for (let slot = Math.imul(hash, GOLDEN) >>> this.shift; ; slot = (slot + 1) & mask) {
      if (this.slotStamps[slot] !== this.stamp) {
        this.slotStamps[slot] = this.stamp;
        this.slotHashes[slot] = hash;
        this.slotTerms[slot] = this.counted.hashes.push(hash);
        this.counted.counts.push(1);
        return;
      }
      if (this.slotHashes[slot] === hash) {
        this.counted.counts[this.slotTerms[slot]! - 1]!++;
        return;
      }
    }
  }

  /**
   * Makes room, at most half the slots full, for the terms of a text of `bytes` UTF-8 bytes: a
   * term takes two bytes, a whole word two parts and a break, so at most 3 terms in 4 bytes. So
   * add() never grows the table, which keeps the hot loop free of a path it rarely takes.
   */
  reserve(bytes: number): void {
    const most = this.counted.hashes.length + Math.ceil((bytes * 3) / 4) + 1;
    while (most * 2 > this.slotHashes.length) this.grow();
  }

  /** The counts since begin(). */
  result(): TermCounts {
    return this.counted;
  }

  /** Doubles the table and places this text's terms again. */
  private grow(): void {
    const size = this.slotHashes.length * 2;
    this.shift--;
    this.slotHashes = new Int32Array(size);
    this.slotTerms = new Int32Array(size);
    this.slotStamps = new Int32Array(size);
    const mask = size - 1;
    this.counted.hashes.forEach((hash, i) => {
      let slot = Math.imul(hash, GOLDEN) >>> this.shift;
      while (this.slotStamps[slot] === this.stamp) slot = (slot + 1) & mask;
      this.slotStamps[slot] = this.stamp;
      this.slotHashes[slot] = hash;
      this.slotTerms[slot] = i + 1;
    });
  }
}
