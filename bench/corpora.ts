import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFiles } from '../src/discover/discoverFiles.js';

/** The corpus slices ../shared/corpora/make-corpora.sh builds from Debian and npm packages. */
const MAKE_CORPORA = fileURLToPath(new URL('../../../shared/corpora/make-corpora.sh', import.meta.url));
export const DEFAULT_CORPORA = process.env.REPOMAP_CORPORA ?? '/work/corpora';
export const SLICES_500 = ['python-500', 'go-500', 'java-500', 'rust-500', 'ts-500', 'js-500', 'mixed-500'];
/** The scaling curve: the mixed 500-file slice, the script's larger slices, and one made here. */
export const SCALING_SLICES = ['mixed-500', 'scale-2k', 'scale-10k', 'scale-50k'];
const REPLICATED = { name: 'scale-50k', from: 'scale-10k', copies: 5 };

export interface SliceStats {
  /** Files a map sees (after the default excludes), their bytes and lines. */
  files: number;
  bytes: number;
  lines: number;
  /** Files per language, by extension. */
  languages: Record<string, number>;
}

/** The slice's folder, building the corpora first when it is missing (the script is idempotent). */
export function sliceRoot(corpora: string, slice: string): string {
  const root = join(corpora, 'slices', slice);
  if (existsSync(root)) return root;
  if (slice === REPLICATED.name) {
    replicate(sliceRoot(corpora, REPLICATED.from), root, REPLICATED.copies);
    return root;
  }
  if (!existsSync(MAKE_CORPORA)) throw new Error(`slice ${slice} is missing and ${MAKE_CORPORA} is not there to build it`);
  console.error(`building corpora in ${corpora} (make-corpora.sh; downloads Debian and npm packages) ...`);
  execFileSync('bash', [MAKE_CORPORA, corpora], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(root)) throw new Error(`make-corpora.sh built no slice ${slice}`);
  return root;
}

/** About 50,000 files: `copies` copies of a real slice under distinct folders, hard-linked where the disk allows. */
function replicate(source: string, to: string, copies: number): void {
  console.error(`making ${to} from ${copies} copies of ${source} ...`);
  const building = `${to}.partial`;
  rmSync(building, { recursive: true, force: true });
  const paths = discoverFiles({ root: source }).files.map((file) => file.path);
  for (let copy = 0; copy < copies; copy++) {
    for (const path of paths) {
      const target = join(building, `copy${copy}`, path);
      mkdirSync(dirname(target), { recursive: true });
      try {
        linkSync(join(source, path), target);
      } catch {
        copyFileSync(join(source, path), target);
      }
    }
  }
  renameSync(building, to);
}

export function sliceStats(root: string): SliceStats {
  const stats: SliceStats = { files: 0, bytes: 0, lines: 0, languages: {} };
  for (const file of discoverFiles({ root }).files) {
    const text = readFileSync(join(root, file.path));
    stats.files++;
    stats.bytes += text.length;
    for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) stats.lines++;
    const language = file.language ?? 'other';
    stats.languages[language] = (stats.languages[language] ?? 0) + 1;
  }
  return stats;
}

/** Gives `file` an inode of its own: the scaled slices repeat their files as hard links, so an edit in place would change every copy at once. */
export function ownInode(file: string): void {
  if (statSync(file).nlink <= 1) return;
  copyFileSync(file, `${file}.own`);
  renameSync(`${file}.own`, file);
}
