import { countTerms, type TermCounts } from './terms.js';

/** Which files hold each term, and how often: an inverted index over term hashes, in typed arrays. */
export interface Postings {
  /** Distinct term hashes, ascending (as signed 32-bit integers). */
  hashes: Int32Array;
  /** CSR: term t occurs in files[offsets[t] .. offsets[t + 1]] (ascending), counts[…] times. */
  offsets: Int32Array;
  files: Int32Array;
  counts: Int32Array;
  /** Per file, its number of term occurrences (BM25's document length). */
  fileTotals: Int32Array;
}

/** The postings of files' term counts, by file id. */
export function buildPostings(perFile: readonly TermCounts[]): Postings {
  // Terms interned in order of first sight, then counted into place: no sort of every entry.
  const termOf = new Map<number, number>();
  const termHashes: number[] = [];
  const termSizes: number[] = [];
  const fileTotals = new Int32Array(perFile.length);
  perFile.forEach((terms, file) => {
    for (let i = 0; i < terms.hashes.length; i++) {
      const hash = terms.hashes[i]!;
      const term = termOf.get(hash);
      if (term === undefined) {
        termOf.set(hash, termHashes.length);
        termHashes.push(hash);
        termSizes.push(1);
      } else {
        termSizes[term]!++;
      }
      fileTotals[file]! += terms.counts[i]!;
    }
  });
  const termCount = termHashes.length;
  const byHash = Int32Array.from(termHashes.keys()).sort((a, b) => termHashes[a]! - termHashes[b]!);
  const hashes = new Int32Array(termCount);
  const offsets = new Int32Array(termCount + 1);
  const cursor = new Int32Array(termCount);
  byHash.forEach((term, place) => {
    hashes[place] = termHashes[term]!;
    offsets[place + 1] = offsets[place]! + termSizes[term]!;
  });
  byHash.forEach((term, place) => {
    cursor[term] = offsets[place]!;
  });
  const files = new Int32Array(offsets[termCount]!);
  const counts = new Int32Array(files.length);
  // Files are visited in ascending order, so each term's files come out ascending.
  perFile.forEach((terms, file) => {
    for (let i = 0; i < terms.hashes.length; i++) {
      const at = cursor[termOf.get(terms.hashes[i]!)!]!++;
      files[at] = file;
      counts[at] = terms.counts[i]!;
    }
  });
  return { hashes, offsets, files, counts, fileTotals };
}

/**
 * The postings of `terms` (distinct hashes) in each path's folders and file name without its
 * extension (which the files of a language share). Made per query, so only the query's terms
 * are listed, and each folder's terms are counted once for all the files it holds.
 */
export function pathPostings(paths: readonly string[], terms: Int32Array): Postings {
  const hashes = Int32Array.from(terms).sort();
  const termFiles: number[][] = Array.from(hashes, () => []);
  const termCounts: number[][] = Array.from(hashes, () => []);
  const fileTotals = new Int32Array(paths.length);
  const folders = new Map<string, PathPart>();
  paths.forEach((path, file) => {
    const slash = path.lastIndexOf('/');
    const folder = path.slice(0, slash + 1);
    let folderPart = folders.get(folder);
    if (folderPart === undefined) {
      folderPart = pathPart(folder, hashes);
      folders.set(folder, folderPart);
    }
    const dot = path.lastIndexOf('.');
    const namePart = pathPart(path.slice(slash + 1, dot > slash + 1 ? dot : path.length), hashes);
    fileTotals[file] = folderPart.total + namePart.total;
    for (const part of [folderPart, namePart]) {
      for (let i = 0; i < part.terms.length; i++) {
        const files = termFiles[part.terms[i]!]!;
        const counts = termCounts[part.terms[i]!]!;
        if (files[files.length - 1] === file) counts[counts.length - 1]! += part.counts[i]!;
        else {
          files.push(file);
          counts.push(part.counts[i]!);
        }
      }
    }
  });
  const offsets = new Int32Array(hashes.length + 1);
  for (let term = 0; term < hashes.length; term++) offsets[term + 1] = offsets[term]! + termFiles[term]!.length;
  return { hashes, offsets, files: Int32Array.from(termFiles.flat()), counts: Int32Array.from(termCounts.flat()), fileTotals };
}

/** A part of a path: its number of terms, and those of `hashes` it holds (as indexes) with their counts. */
interface PathPart {
  total: number;
  terms: number[];
  counts: number[];
}

function pathPart(text: string, hashes: Int32Array): PathPart {
  const counted = countTerms(text);
  const part: PathPart = { total: 0, terms: [], counts: [] };
  for (let i = 0; i < counted.hashes.length; i++) {
    part.total += counted.counts[i]!;
    const term = termIndex({ hashes }, counted.hashes[i]!);
    if (term < 0) continue;
    part.terms.push(term);
    part.counts.push(counted.counts[i]!);
  }
  return part;
}

/** The index of `hash` in the postings' terms, or −1. */
export function termIndex(postings: Pick<Postings, 'hashes'>, hash: number): number {
  const { hashes } = postings;
  let low = 0;
  let high = hashes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = hashes[middle]!;
    if (value < hash) low = middle + 1;
    else if (value > hash) high = middle - 1;
    else return middle;
  }
  return -1;
}
