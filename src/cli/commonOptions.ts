import { UsageError } from '../errors.js';
import type { IndexOptions } from '../indexing/indexRepository.js';
import { tuneJitForParsing } from './jitTuning.js';

/** The flags every command shares, as yargs hands them over. */
export interface CommonArgs {
  root?: string;
  cacheDir?: string;
  jobs?: number;
  ignore?: (string | number)[];
  maxFileBytes: number;
  fileTimeoutMs: number;
  verbose: boolean;
}

export function indexOptionsFrom(args: CommonArgs): IndexOptions {
  if (args.jobs !== undefined && (!Number.isInteger(args.jobs) || args.jobs < 1)) {
    throw new UsageError(`--jobs must be a whole number of at least 1, not ${args.jobs}`);
  }
  if (!Number.isFinite(args.maxFileBytes) || args.maxFileBytes < 0) {
    throw new UsageError(`--max-file-bytes must be a number of bytes, not ${args.maxFileBytes}`);
  }
  if (!Number.isFinite(args.fileTimeoutMs) || args.fileTimeoutMs <= 0) {
    throw new UsageError(`--file-timeout-ms must be a positive number, not ${args.fileTimeoutMs}`);
  }
  return {
    root: args.root,
    cacheDir: args.cacheDir,
    jobs: args.jobs,
    ignore: args.ignore?.map(String),
    maxFileBytes: args.maxFileBytes,
    fileTimeoutMs: args.fileTimeoutMs,
    onWarning: (message) => process.stderr.write(`repomap: warning: ${message}\n`),
    onParseStart: tuneJitForParsing,
  };
}
