import { parentPort } from 'node:worker_threads';
import { type StatChunk, statIfUnclaimed } from '../src/discover/statFiles.js';

/** The stat worker (see src/discover/statFiles.ts): stats each chunk it is handed that the coordinator has not claimed; a null ends it. */
parentPort!.on('message', (chunk: StatChunk | null) => {
  if (chunk === null) parentPort!.close();
  else statIfUnclaimed(chunk);
});
