import { workerData } from 'node:worker_threads';
import { type StatShare, statClaimedChunks } from '../src/discover/statFiles.js';

/** The stat worker (see src/discover/statFiles.ts): claims chunks of the listed files beside the coordinator, then ends. */
const share = workerData as StatShare;
statClaimedChunks(share, share.joinedPaths.split('\0'));
