/** Every default the CLI shows and the library applies, in one import-free place. */
export const DEFAULTS = {
  maxFileBytes: 1024 * 1024,
  fileTimeoutMs: 10_000,
  indexWaitMs: 60_000,
  maxTokens: 1024,
  maxLineLength: 100,
  mapMulNoFiles: 8,
  style: 'signatures',
  gitSignals: true,
  pageRank: { damping: 0.85, tolerance: 1e-6, maxIterations: 100 },
} as const;
