import type { KeptRanking } from '../rank/rankingCache.js';

/** Kept rankings (rankingCache.ts) as stored values. */

/** float64s: the slots' count, the files' count, complete, iterations, converged (0 or 1 each). */
const HEADER = 5;

/** The header, the slots' scores and every file's score as float64s, then the slots and the files as int32s. */
export function encodeKeptRanking(ranking: KeptRanking): Uint8Array {
  const { slots, slotScores, files, fileScores } = ranking;
  const floats = HEADER + slotScores.length + fileScores.length;
  const bytes = new Uint8Array(8 * floats + 4 * (slots.length + files.length));
  const header = new Float64Array(bytes.buffer, 0, floats);
  header.set([slots.length, files.length, ranking.complete ? 1 : 0, ranking.iterations, ranking.converged ? 1 : 0]);
  header.set(slotScores, HEADER);
  header.set(fileScores, HEADER + slotScores.length);
  const ints = new Int32Array(bytes.buffer, 8 * floats);
  ints.set(slots);
  ints.set(files, slots.length);
  return bytes;
}

/** The ranking kept in `bytes`, when it was made on tables of `fileCount` files and `slotCount` definer slots; null otherwise. */
export function decodeKeptRanking(stored: Uint8Array, fileCount: number, slotCount: number): KeptRanking | null {
  if (stored.length < 8 * HEADER) return null;
  // Copied: stored values need not be 8-byte aligned.
  const bytes = new Uint8Array(stored);
  const [slotsKept, filesKept, complete, iterations, converged] = new Float64Array(bytes.buffer, 0, HEADER) as unknown as number[];
  if (!Number.isInteger(slotsKept) || !Number.isInteger(filesKept) || slotsKept! < 0 || filesKept! < 0 || filesKept! > fileCount) return null;
  const floats = HEADER + slotsKept! + fileCount;
  if (bytes.length !== 8 * floats + 4 * (slotsKept! + filesKept!)) return null;
  if ((complete !== 0 && complete !== 1) || (converged !== 0 && converged !== 1) || !Number.isInteger(iterations)) return null;
  const slots = new Int32Array(bytes.buffer, 8 * floats, slotsKept);
  const files = new Int32Array(bytes.buffer, 8 * floats + 4 * slotsKept!, filesKept);
  if (slots.some((slot) => slot < 0 || slot >= slotCount) || files.some((file) => file < 0 || file >= fileCount)) return null;
  return {
    slots,
    slotScores: new Float64Array(bytes.buffer, 8 * HEADER, slotsKept),
    files,
    fileScores: new Float64Array(bytes.buffer, 8 * (HEADER + slotsKept!), fileCount),
    complete: complete === 1,
    iterations: iterations!,
    converged: converged === 1,
  };
}
