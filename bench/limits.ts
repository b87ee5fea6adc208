import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFiles } from '../src/discover/discoverFiles.js';
import { extractRecord } from '../workers/extractRecord.js';
import { grammarFor } from '../workers/grammars.js';

/**
 * The single-thread limits: every source file of a slice read, parsed and run through the tags
 * query in a plain loop (the physics: what the grammars and queries cost), and read and fully
 * extracted into a record (the work a worker does). Each loop runs in a fresh process, so
 * neither warms the other.
 */
export type LoopWork = 'parse-query' | 'extract';

export interface LoopResult {
  seconds: number;
  bytes: number;
  /** Source bytes and seconds per language. */
  byLanguage: Record<string, { bytes: number; seconds: number }>;
}

/** The loop's run with the median time of `runs`: a one-shot loop varies by 10% here. */
export function plainLoop(root: string, work: LoopWork, runs = 3): LoopResult {
  const results = Array.from({ length: runs }, () => loopOnce(root, work)).sort((a, b) => a.seconds - b.seconds);
  return results[(runs - 1) >> 1]!;
}

function loopOnce(root: string, work: LoopWork): LoopResult {
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), work, root], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (result.status !== 0) throw new Error(`plain ${work} loop failed on ${root}: ${result.stderr}`);
  return JSON.parse(result.stdout) as LoopResult;
}

function runLoop(work: LoopWork, root: string): LoopResult {
  const files = discoverFiles({ root }).files.filter((file) => file.language !== null);
  const out: LoopResult = { seconds: 0, bytes: 0, byLanguage: {} };
  for (const file of files) {
    const started = performance.now();
    const bytes = readFileSync(join(root, file.path));
    const text = bytes.toString('utf8');
    if (work === 'extract') {
      extractRecord({ ...file, language: file.language!, text, bytes }, 60_000);
    } else {
      const grammar = grammarFor(file.language!);
      grammar.tagsQuery.matches(grammar.parser.parse(text).rootNode);
    }
    const seconds = (performance.now() - started) / 1000;
    out.byLanguage[file.language!] ??= { bytes: 0, seconds: 0 };
    const language = out.byLanguage[file.language!]!;
    language.bytes += file.size;
    language.seconds += seconds;
    out.bytes += file.size;
    out.seconds += seconds;
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(runLoop(process.argv[2] as LoopWork, process.argv[3]!)));
}
