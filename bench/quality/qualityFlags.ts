import { DEFAULT_CORPORA } from '../corpora.js';
import { DEFAULT_MIRRORS, DEFAULT_QUALITY_DATA, DEFAULT_QUALITY_SCRATCH, QUALITY_PARTS, type QualityOptions } from './runQuality.js';

/** The `--quality-*` flags of bench/run.ts, as parseArgs gives them. */
export interface QualityFlags {
  corpora?: string;
  'quality-parts'?: string;
  'quality-variants'?: string;
  'quality-limit'?: string;
  'quality-repos'?: string;
  'quality-chat-files'?: string;
  'quality-data'?: string;
  'quality-mirrors'?: string;
  'quality-scratch'?: string;
}

const list = (value: string | undefined) => (value === undefined ? null : value.split(',').filter((item) => item !== ''));

function count(flag: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${flag} takes a whole number of at least 1, not ${value}`);
  return parsed;
}

/** The harness's options from the flags; `slices` are the corpus slices to measure. */
export function qualityOptions(flags: QualityFlags, slices: readonly string[]): Omit<QualityOptions, 'progress'> {
  const parts = list(flags['quality-parts']) ?? [...QUALITY_PARTS];
  const unknown = parts.filter((part) => !(QUALITY_PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`--quality-parts takes ${QUALITY_PARTS.join(', ')}, not ${unknown.join(', ')}`);
  return {
    parts: parts as QualityOptions['parts'],
    variants: list(flags['quality-variants']),
    dataDir: flags['quality-data'] ?? DEFAULT_QUALITY_DATA,
    mirrorsDir: flags['quality-mirrors'] ?? DEFAULT_MIRRORS,
    scratchDir: flags['quality-scratch'] ?? DEFAULT_QUALITY_SCRATCH,
    issueLimit: count('quality-limit', flags['quality-limit']),
    repos: list(flags['quality-repos']),
    corpora: flags.corpora ?? DEFAULT_CORPORA,
    slices,
    chatFiles: count('quality-chat-files', flags['quality-chat-files']) ?? 20,
  };
}
