import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The corpus slices ../shared/corpora/make-corpora.sh builds, and their defaults for the benches. */
const MAKE_CORPORA = fileURLToPath(new URL('../../../shared/corpora/make-corpora.sh', import.meta.url));
export const DEFAULT_CORPORA = process.env.REPOMAP_CORPORA ?? '/work/corpora';
export const SLICES_500 = ['python-500', 'go-500', 'java-500', 'rust-500', 'ts-500', 'js-500', 'mixed-500'];

/** The slices' folder under `corpora`, built first when `slice` is missing (the script is idempotent). */
export function sliceRoot(corpora: string, slice: string): string {
  const root = join(corpora, 'slices', slice);
  if (!existsSync(root)) {
    console.error(`building corpora in ${corpora} ...`);
    execFileSync('bash', [MAKE_CORPORA, corpora], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return root;
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
