import { loadBundle } from '../codeCache.js';
import { LIMITS } from '../defaults.js';
import { parseHereFile } from '../packageFiles.js';
import { GATE_BYTES, type ParsedShard, type ParseShardRequest, parsedShardOf, type ShardFile, type ShardSettings } from './workerProtocol.js';

/** Whether `files` are few and small enough to parse in this thread rather than boot a worker (see LIMITS.parseHereMaxBytes). */
export function parsableHere(files: readonly ShardFile[]): boolean {
  if (files.length > LIMITS.parseHereMaxFiles) return false;
  let bytes = 0;
  for (const file of files) bytes += file.size;
  return bytes <= LIMITS.parseHereMaxBytes;
}

type ParseHere = (request: unknown) => Promise<unknown>;
let parseHereModule: ParseHere | undefined;

/**
 * Parses `files` in this thread with the parse worker's code (workers/parseHere.ts), loaded on
 * first use: a run with nothing to parse loads no grammar. No watchdog stands over it, so only
 * the files' own deadlines bound it; that is why only a few small files come here.
 */
export async function parseHere(files: ShardFile[], settings: ShardSettings): Promise<ParsedShard> {
  parseHereModule ??= loadParseHere();
  const request: ParseShardRequest = { kind: 'parse-shard', files, ...settings, gate: new SharedArrayBuffer(GATE_BYTES) };
  return parsedShardOf(files, await parseHereModule(request));
}

/** The bundled parse, compiled with its code cache (see src/codeCache.ts): its first file's parse compiles none of it. */
function loadParseHere(): ParseHere {
  const loaded: unknown = loadBundle(parseHereFile()).exports;
  const parse = typeof loaded === 'object' && loaded !== null ? Reflect.get(loaded, 'parseHere') : undefined;
  if (typeof parse !== 'function') throw new Error(`${parseHereFile()} does not export parseHere: build the package again`);
  return parse as ParseHere;
}
