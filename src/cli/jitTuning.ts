import { createRequire } from 'node:module';

/** At 50 files of mixed-500 the tuning changes nothing (0.44 s); at 150 it saves a quarter (0.76 → 0.58 s). */
const MANY_FILES = 50;
/** V8's interrupt budget in Node 20 is 66 KiB of bytecode; sixteen times that. */
const PARSING_INTERRUPT_BUDGET = 16 * 67_584;

/**
 * A one-shot run that parses many files spends more on V8's optimizing compiler than it gets
 * back: every worker optimizes the same hot functions again, on background threads that take the
 * cores from the workers (a third of the CPU of mixed-500's cold index). A sixteen-fold interrupt
 * budget leaves optimizing to code that stays hot: mixed-500 1.7 → 1.2 s, scale-10k 17.5 →
 * 16.5 s. V8 flags hold for the whole process and a warm map is 13% slower with this one, so
 * only the CLI, which owns its process, sets it, and only before it parses many files.
 */
export function tuneJitForParsing(files: number): void {
  if (files < MANY_FILES) return;
  // Required here, not imported: a warm map never loads node:v8.
  const { setFlagsFromString } = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  setFlagsFromString(`--interrupt-budget=${PARSING_INTERRUPT_BUDGET}`);
}
