import { inspect } from 'node:util';
import { type FileStamp, LANGUAGES, type Language } from '../record/fileRecord.js';

/**
 * The messages between the coordinator and its two kinds of worker: the Piscina parse workers
 * (workers/parseShard.ts; workers/parseHere.ts takes the same request in the coordinator's own
 * thread) and the suspect checker, a child process that parses the files a
 * crashed run was parsing (workers/checkSuspects.ts). Whoever receives a message checks it with
 * its guard: a malformed message is a WorkerProtocolError where it arrives, not a failure later.
 */

/** A file to parse, with its stamp as discovery found it. */
export interface ShardFile extends FileStamp {
  path: string;
  language: Language;
}

/** What parsing a file takes besides the file. */
export interface ParseLimits {
  root: string;
  maxFileBytes: number;
  fileTimeoutMs: number;
}

export interface ParseShardRequest extends ParseLimits {
  kind: 'parse-shard';
  files: ShardFile[];
  /** Where each worker notes the file it is parsing, so a crash can be pinned on it; null: none. */
  journalDir: string | null;
  /** The shard's gate, shared by the worker and the coordinator: Int32s at GATE_STATE (a GateState) and GATE_EXITS. */
  gate: SharedArrayBuffer;
}

/** What every shard of a run is parsed with. */
export type ShardSettings = Omit<ParseShardRequest, 'kind' | 'files' | 'gate'>;

/**
 * Whether the coordinator may terminate a parse worker, held in the shard's gate. Terminating a
 * thread with tree-sitter on its stack aborts the process: the binding's next N-API call fails,
 * and node-addon-api throws a C++ exception that no frame catches. So the coordinator claims a
 * worker (OUTSIDE → CLAIMED, atomically) before terminating it, and a worker enters tree-sitter
 * only from OUTSIDE: a claimed one waits to be terminated instead. A worker whose shard is done
 * says so (DONE) before it replies: its reply is on its way, and a watchdog firing before the
 * coordinator reads it must not throw the finished work away.
 */
export const GateState = { OUTSIDE: 0, IN_TREE_SITTER: 1, CLAIMED: 2, DONE: 3 } as const;
export const GATE_STATE = 0;
/** How many times the worker has left tree-sitter: a worker that did since the coordinator last looked is not stuck. */
export const GATE_EXITS = 1;
export const GATE_BYTES = 2 * Int32Array.BYTES_PER_ELEMENT;

export interface ShardResult {
  kind: 'shard-result';
  /** The stored values (see record/recordCodec.ts) of the shard's files, back to back, in order. */
  values: Uint8Array;
  lengths: number[];
  /** Files whose tags were extracted. */
  parsed: number;
}

/** A worker's answer to a request it could not read. */
export interface RequestRejected {
  kind: 'request-rejected';
  reason: string;
}

export type ParseWorkerReply = ShardResult | RequestRejected;

/** One shard's outcome, as the coordinator reads a reply: stored values by path, ready to commit. */
export interface ParsedShard {
  values: Map<string, Uint8Array>;
  /** Files whose tags were extracted (the rest have a skip reason in their record). */
  parsed: number;
}

/** A reply to a shard of `files`, checked: the stored values by path. */
export function parsedShardOf(files: readonly ShardFile[], reply: unknown): ParsedShard {
  if (!isParseWorkerReply(reply) || (reply.kind === 'shard-result' && reply.lengths.length !== files.length)) {
    throw new WorkerProtocolError(malformed(`reply to a parse-shard request of ${files.length} files`, reply));
  }
  if (reply.kind === 'request-rejected') throw new WorkerProtocolError(`the parse worker rejected its request: ${reply.reason}`);
  const values = new Map<string, Uint8Array>();
  let offset = 0;
  files.forEach((file, i) => {
    const length = reply.lengths[i]!;
    values.set(file.path, reply.values.subarray(offset, offset + length));
    offset += length;
  });
  return { values, parsed: reply.parsed };
}

/** Passed to the checker as its one argument, in JSON. */
export interface CheckSuspectsRequest extends ParseLimits {
  kind: 'check-suspects';
  files: ShardFile[];
}

/**
 * The checker's reports, one JSON line each on its stdout, written before and after each file
 * with blocking writes: if a file takes the checker down, the coordinator still reads which one.
 */
export type SuspectCheckReport = { kind: 'parse-started'; path: string } | { kind: 'parse-done'; path: string } | RequestRejected;

export class WorkerProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerProtocolError';
  }
}

/** Says what arrived instead of a `what`, short enough for one line. */
export function malformed(what: string, received: unknown): string {
  return `malformed ${what}: ${inspect(received, { depth: 2, maxArrayLength: 4, maxStringLength: 80, breakLength: Number.POSITIVE_INFINITY })}`;
}

export function isParseShardRequest(message: unknown): message is ParseShardRequest {
  return (
    isObject(message) &&
    message.kind === 'parse-shard' &&
    hasParseLimits(message) &&
    isShardFiles(message.files) &&
    (message.journalDir === null || typeof message.journalDir === 'string') &&
    message.gate instanceof SharedArrayBuffer &&
    message.gate.byteLength === GATE_BYTES
  );
}

export function isParseWorkerReply(message: unknown): message is ParseWorkerReply {
  if (!isObject(message)) return false;
  if (message.kind !== 'shard-result') return isRequestRejected(message);
  const { values, lengths } = message;
  return (
    values instanceof Uint8Array &&
    Array.isArray(lengths) &&
    lengths.every(isCount) &&
    lengths.reduce((sum, length) => sum + length, 0) === values.length &&
    isCount(message.parsed)
  );
}

export function isCheckSuspectsRequest(message: unknown): message is CheckSuspectsRequest {
  return isObject(message) && message.kind === 'check-suspects' && hasParseLimits(message) && isShardFiles(message.files);
}

export function isSuspectCheckReport(message: unknown): message is SuspectCheckReport {
  if (!isObject(message)) return false;
  if (message.kind === 'parse-started' || message.kind === 'parse-done') return typeof message.path === 'string';
  return isRequestRejected(message);
}

/** One report as the checker writes it. */
export function reportLine(report: SuspectCheckReport): string {
  return `${JSON.stringify(report)}\n`;
}

/**
 * The reports in a checker's output. A last line without its newline is dropped: the checker
 * died writing it, which its exit status tells.
 */
export function readReports(output: string): SuspectCheckReport[] {
  return output.split('\n').slice(0, -1).map(readReport);
}

function readReport(line: string): SuspectCheckReport {
  let report: unknown = line;
  try {
    report = JSON.parse(line);
  } catch {
    // Not JSON: the error shows the line as it came.
  }
  if (!isSuspectCheckReport(report)) throw new WorkerProtocolError(malformed('suspect check report', report));
  return report;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isRequestRejected(message: Record<string, unknown>): boolean {
  return message.kind === 'request-rejected' && typeof message.reason === 'string';
}

function hasParseLimits(message: Record<string, unknown>): boolean {
  return typeof message.root === 'string' && typeof message.maxFileBytes === 'number' && typeof message.fileTimeoutMs === 'number';
}

function isShardFiles(files: unknown): boolean {
  return Array.isArray(files) && files.every(isShardFile);
}

function isShardFile(file: unknown): boolean {
  return (
    isObject(file) &&
    typeof file.path === 'string' &&
    LANGUAGES.some((language) => language === file.language) &&
    typeof file.mtimeMs === 'number' &&
    typeof file.size === 'number' &&
    typeof file.ctimeMs === 'number' &&
    typeof file.ino === 'number'
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
