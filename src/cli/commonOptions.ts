import type { IndexOptions } from '../options/libraryOptions.js';
import type { CommonArgs } from './commandTable.js';
import { tuneJitForParsing } from './jitTuning.js';
import { writeStderrLine } from './stderrLine.js';

export function indexOptionsFrom(args: CommonArgs): IndexOptions {
  return {
    root: args.root,
    cacheDir: args.cacheDir,
    jobs: args.jobs,
    ignore: args.ignore,
    maxFileBytes: args.maxFileBytes,
    fileTimeoutMs: args.fileTimeoutMs,
    indexWaitMs: args.indexWaitMs,
    onWarning: (message) => writeStderrLine(`warning: ${message}`),
    onParseStart: tuneJitForParsing,
  };
}
