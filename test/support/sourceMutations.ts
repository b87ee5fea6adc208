import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { seededRandom } from '../../dist/bench/seededRandom.js';

/** What a campaign does to a real source file, each as damaged files come: edited, cut, generated, or not text at all. */
export const MUTATION_KINDS = ['byte-flips', 'truncation', 'bracket-bomb', 'nul-bytes', 'invalid-utf8'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface MutatedFile {
  /** `<kind>/<n>-<name of the source>`: the extension, and so the language, is the source's. */
  path: string;
  kind: MutationKind;
  bytes: Uint8Array;
}

const SOURCE_EXTENSIONS = new Set(['.py', '.js', '.jsx', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.rs', '.go', '.java']);
const MAX_BOMB_DEPTH = 100_000;
const BRACKETS = ['(', '[', '{', '<'];
/** Byte sequences no UTF-8 decoder accepts, wherever they land: a lone continuation, a lead byte cut short, 0xFF, a surrogate. */
const INVALID_UTF8 = [[0x80], [0xc3], [0xff], [0xed, 0xa0, 0x80]];
/** Git's and repomap's binary sniff reads this far. */
const BINARY_SNIFF_BYTES = 8000;

/** Every source file under `dirs` (repository-relative), sorted by path: the same list on every machine. */
export function sourceFiles(repoRoot: string, dirs: readonly string[]): { path: string; bytes: Uint8Array }[] {
  const found: { path: string; bytes: Uint8Array }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && SOURCE_EXTENSIONS.has(extname(entry.name))) found.push({ path: relative(repoRoot, path), bytes: readFileSync(path) });
    }
  };
  for (const dir of dirs) walk(join(repoRoot, dir));
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** `count` mutated copies of files drawn from `sources`, the kinds taken in turn, all decided by `seed`. */
export function mutatedFiles(sources: readonly { path: string; bytes: Uint8Array }[], count: number, seed: number): MutatedFile[] {
  const random = seededRandom(seed);
  const below = (n: number): number => Math.floor(random() * n);
  return Array.from({ length: count }, (_, n) => {
    const kind = MUTATION_KINDS[n % MUTATION_KINDS.length]!;
    const source = sources[below(sources.length)]!;
    return { path: `${kind}/${n}-${basename(source.path)}`, kind, bytes: mutate(kind, source.bytes, below) };
  });
}

function mutate(kind: MutationKind, original: Uint8Array, below: (n: number) => number): Uint8Array {
  switch (kind) {
    case 'byte-flips': {
      const bytes = Uint8Array.from(original);
      const flips = bytes.length === 0 ? 0 : 1 + below(16);
      // The low seven bits only: ASCII stays ASCII (a NUL now and then), so most flips reach the parser.
      for (let i = 0; i < flips; i++) bytes[below(bytes.length)]! ^= 1 + below(127);
      return bytes;
    }
    case 'truncation':
      return original.subarray(0, below(original.length + 1));
    case 'bracket-bomb': {
      // Depths spread evenly over orders of magnitude, from harmless to a minute of query time.
      const depth = Math.round(Math.exp((below(1_000_000) / 1_000_000) * Math.log(MAX_BOMB_DEPTH)));
      const bomb = new TextEncoder().encode(BRACKETS[below(BRACKETS.length)]!.repeat(depth));
      return splice(original, below(original.length + 1), bomb);
    }
    case 'nul-bytes': {
      let bytes = original;
      const nuls = 1 + below(4);
      for (let i = 0; i < nuls; i++) bytes = splice(bytes, below(Math.min(bytes.length, BINARY_SNIFF_BYTES) + 1), Uint8Array.of(0));
      return bytes;
    }
    case 'invalid-utf8':
      return splice(original, below(original.length + 1), Uint8Array.from(INVALID_UTF8[below(INVALID_UTF8.length)]!));
  }
}

function splice(bytes: Uint8Array, at: number, inserted: Uint8Array): Uint8Array {
  const result = new Uint8Array(bytes.length + inserted.length);
  result.set(bytes.subarray(0, at), 0);
  result.set(inserted, at);
  result.set(bytes.subarray(at), at + inserted.length);
  return result;
}
