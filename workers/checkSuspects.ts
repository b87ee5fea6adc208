import { writeSync } from 'node:fs';
import { isCheckSuspectsRequest, malformed, reportLine, type SuspectCheckReport } from '../src/indexing/workerProtocol.js';
import { buildRecord } from './buildRecord.js';
import { disableNodeCache } from './nodeCache.js';

/**
 * The suspect checker, run as a child process after a crash with a CheckSuspectsRequest as its
 * argument: parses the files the dead run was parsing, one at a time, reporting on each before
 * and after. The process is its own, so it parses as the workers do, node cache off.
 */
const report = (message: SuspectCheckReport): number => writeSync(1, reportLine(message));

const request = requestOf(process.argv[2]);
if (isCheckSuspectsRequest(request)) {
  disableNodeCache();
  for (const file of request.files) {
    report({ kind: 'parse-started', path: file.path });
    buildRecord(request, file);
    report({ kind: 'parse-done', path: file.path });
  }
} else {
  report({ kind: 'request-rejected', reason: malformed('check-suspects request', request) });
}

function requestOf(argument: string | undefined): unknown {
  try {
    return JSON.parse(argument ?? '');
  } catch {
    return argument;
  }
}
