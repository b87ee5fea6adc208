import { isParseShardRequest, malformed, type ParseWorkerReply } from '../src/indexing/workerProtocol.js';
import { parseFiles } from './parseFiles.js';
import { UNGUARDED } from './treeSitterGate.js';

/**
 * The parse run in the coordinator's own thread (see src/indexing/parseHere.ts), for a few small
 * files: a shard's work without a worker. The thread may be a host's, so it is left as it is:
 * the binding's node cache kept, no collections forced. Bundled as CommonJS, to be required.
 */
export async function parseHere(request: unknown): Promise<ParseWorkerReply> {
  if (!isParseShardRequest(request)) return { kind: 'request-rejected', reason: malformed('parse-shard request', request) };
  return parseFiles(request, UNGUARDED);
}
