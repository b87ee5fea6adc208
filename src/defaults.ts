/** Every default the CLI shows and the library applies, in one import-free place. */
export const DEFAULTS = {
  maxFileBytes: 1024 * 1024,
  fileTimeoutMs: 10_000,
  indexWaitMs: 60_000,
  maxTokens: 1024,
  /** An outline's budget: a folder's tree and a few hundred signatures, and never a flood (java.base/java/util whole is 820 kB). */
  outlineTokens: 4096,
  maxLineLength: 100,
  mapMulNoFiles: 8,
  /** Files and (file, identifier) pairs of the ranking `map --format json` lists: the map's own part is bounded by its budget, this one by a count. */
  rankedListed: 100,
  style: 'signatures',
  gitSignals: true,
  pageRank: { damping: 0.85, tolerance: 1e-6, maxIterations: 100 },
} as const;

/** Limits the library keeps whatever it is given. */
export const LIMITS = {
  /** Parse workers are CPU-bound: more than the cores only adds memory (about 15 MB each, 0.9 GB for 64 here). 64 is the largest common core count; a fixed bound reads the same on every machine. */
  maxJobs: 64,
  /** Node runs a timer set longer than 2^31 - 1 ms after 1 ms: a deadline past it is as good as none, and is clamped to it. */
  maxTimerMs: 2 ** 31 - 1,
  /**
   * Files to parse that fit both bounds are parsed in the calling thread: a parse worker takes
   * 90–100 ms to boot here, the time it takes to parse about 250 KB. Each file still answers to
   * its own deadline; the bounds keep the thread's pause short.
   */
  parseHereMaxFiles: 64,
  parseHereMaxBytes: 256 * 1024,
  /** Records that are copied, not parsed (restamped or imported), are committed about this many bytes at a time: memory stays flat whatever the tree's size. */
  commitBatchBytes: 32 * 1024 * 1024,
} as const;
