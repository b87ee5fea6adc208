import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runIssues } from './issueRun.js';
import type { QualityResults } from './qualityResults.js';
import { runSlices } from './sliceRun.js';
import { VARIANTS } from './variants.js';

export const DEFAULT_QUALITY_DATA = process.env.REPOMAP_QUALITY_DATA ?? fileURLToPath(new URL('../../../../shared/quality/', import.meta.url));
export const DEFAULT_MIRRORS = process.env.REPOMAP_MIRRORS ?? '/work/.mirror';
export const DEFAULT_QUALITY_SCRATCH = join(tmpdir(), 'repomap-quality');
export const QUALITY_PARTS = ['issues', 'slices'] as const;

export interface QualityOptions {
  parts: readonly (typeof QUALITY_PARTS)[number][];
  /** Variant names; null: all of VARIANTS. */
  variants: readonly string[] | null;
  dataDir: string;
  mirrorsDir: string;
  scratchDir: string;
  issueLimit: number | null;
  repos: readonly string[] | null;
  corpora: string;
  slices: readonly string[];
  chatFiles: number;
  progress: (message: string) => void;
}

/** `npm run bench -- --quality`: the issue sets and the corpus slices, per variant. */
export async function runQuality(options: QualityOptions): Promise<QualityResults> {
  const unknownNames = (options.variants ?? []).filter((name) => !VARIANTS.some((variant) => variant.name === name));
  if (unknownNames.length > 0)
    throw new Error(`no quality variant ${unknownNames.join(', ')} (there are ${VARIANTS.map((variant) => variant.name).join(', ')})`);
  const variants = VARIANTS.filter((variant) => !options.variants || options.variants.includes(variant.name));
  const common = { scratchDir: options.scratchDir, variants, progress: options.progress };
  const issues = options.parts.includes('issues')
    ? await runIssues({ ...common, dataDir: options.dataDir, mirrorsDir: options.mirrorsDir, limit: options.issueLimit, repos: options.repos })
    : null;
  const slices = options.parts.includes('slices')
    ? await runSlices({
        ...common,
        scratchDir: join(options.scratchDir, 'slices'),
        corpora: options.corpora,
        slices: options.slices,
        chatFiles: options.chatFiles,
      })
    : null;
  return { variants: variants.map((variant) => variant.name), issues, slices };
}
