import { Piscina } from 'piscina';
import { LIMITS } from '../defaults.js';
import { parseWorkerFile } from '../packageFiles.js';
import { emptyRecord, type SkipReason } from '../record/fileRecord.js';
import { encodeRecord } from '../record/recordCodec.js';
import {
  GATE_BYTES,
  GATE_EXITS,
  GATE_STATE,
  GateState,
  type ParsedShard,
  type ParseShardRequest,
  parsedShardOf,
  type ShardFile,
  type ShardSettings,
  WorkerProtocolError,
} from './workerProtocol.js';

/** Grace on top of the per-file limits before a silent worker is declared stuck. */
const WATCHDOG_SLACK_MS = 2000;
/** How often a worker past its shard's time is looked at again: inside tree-sitter it leaves by its own deadlines; out of it, it is stopped unless it left tree-sitter since the last look. */
const WATCHDOG_RECHECK_MS = 50;

/**
 * The parse workers: one single-thread Piscina pool per lane, so the coordinator decides which
 * worker parses which shard (see ShardQueue). A shard whose worker throws, exits or hangs is
 * retried file by file, so a bad file costs only itself: alone, it gets a record with no tags
 * and the reason (`timeout` when it hung, `worker-error` otherwise). A WorkerProtocolError is
 * no fault of a file: it ends the run. A worker is terminated only outside tree-sitter and
 * before its shard is done (see GateState); inside, its own per-file deadlines bring it out.
 */
export class ParsePool {
  private readonly lanes: Piscina[];
  /** Shards in flight: closing waits for them, since it would terminate their workers wherever they are. */
  private readonly running = new Set<Promise<unknown>>();
  /** Settles as each lane's worker has loaded its module (see close). */
  private readonly booted: Promise<unknown>[];

  /** Starts `threads` workers booting; they load grammars when their first shard arrives. */
  constructor(readonly threads: number) {
    const filename = parseWorkerFile();
    this.lanes = Array.from(
      { length: threads },
      () =>
        new Piscina({
          filename,
          minThreads: 1,
          maxThreads: 1,
          // Shards arrive back to back; an idle worker would only be torn down and rebuilt.
          idleTimeout: 10_000,
        }),
    );
    // An empty shard is answered once the worker's module, tree-sitter's binding with it, has loaded.
    this.booted = this.lanes.map((lane) => lane.run(emptyShard()).catch(() => undefined));
  }

  /** Parses a shard in lane `lane`'s worker; the lane must have no other shard in flight. */
  async parse(lane: number, files: ShardFile[], settings: ShardSettings): Promise<ParsedShard> {
    try {
      return await this.runShard(this.lanes[lane]!, files, settings);
    } catch (error) {
      if (error instanceof WorkerProtocolError) throw error;
      if (files.length === 1) return this.failedFile(files[0]!, error);
      const merged: ParsedShard = { values: new Map(), parsed: 0 };
      for (const file of files) {
        const outcome = await this.parse(lane, [file], settings);
        for (const [path, value] of outcome.values) merged.values.set(path, value);
        merged.parsed += outcome.parsed;
      }
      return merged;
    }
  }

  /**
   * Terminating a worker still loading its module aborts the process 1 run in 60 here (a
   * Napi::Error thrown through the binding's init, or a failed assertion in Node's module
   * loader), so a pool closed before its first shard waits for its workers to boot.
   */
  async close(): Promise<void> {
    await Promise.allSettled([...this.booted, ...this.running]);
    await Promise.all(this.lanes.map((lane) => lane.close({ force: true })));
  }

  private async runShard(lane: Piscina, files: ShardFile[], settings: ShardSettings): Promise<ParsedShard> {
    const gate = new SharedArrayBuffer(GATE_BYTES);
    const request: ParseShardRequest = { kind: 'parse-shard', files, ...settings, gate };
    const watchdog = new AbortController();
    const state = new Int32Array(gate);
    let exitsSeen = -1;
    const stopOutsideTreeSitter = (): void => {
      // A worker that came out of tree-sitter since the last look is finishing its work, not stuck.
      const exits = Atomics.load(state, GATE_EXITS);
      const moved = exits !== exitsSeen;
      exitsSeen = exits;
      if (!moved && Atomics.compareExchange(state, GATE_STATE, GateState.OUTSIDE, GateState.CLAIMED) === GateState.OUTSIDE) {
        watchdog.abort(new WorkerStuckError());
      } else {
        timer = setTimeout(stopOutsideTreeSitter, WATCHDOG_RECHECK_MS);
      }
    };
    let timer = setTimeout(stopOutsideTreeSitter, Math.min(LIMITS.maxTimerMs, settings.fileTimeoutMs * files.length + WATCHDOG_SLACK_MS));
    const run = lane.run(request, { signal: watchdog.signal });
    this.running.add(run);
    try {
      return parsedShardOf(files, await run);
    } finally {
      this.running.delete(run);
      clearTimeout(timer);
    }
  }

  private failedFile(file: ShardFile, error: unknown): ParsedShard {
    const reason: SkipReason = isStuck(error) ? 'timeout' : 'worker-error';
    const record = emptyRecord(file.path, file, file.language, reason);
    return { values: new Map([[file.path, encodeRecord(record)]]), parsed: 0 };
  }
}

function emptyShard(): ParseShardRequest {
  return { kind: 'parse-shard', files: [], root: '', maxFileBytes: 0, fileTimeoutMs: 0, journalDir: null, gate: new SharedArrayBuffer(GATE_BYTES) };
}

class WorkerStuckError extends Error {
  constructor() {
    super('worker stopped answering');
  }
}

function isStuck(error: unknown): boolean {
  if (error instanceof WorkerStuckError) return true;
  // Piscina rejects an aborted task with its own error, carrying the abort reason as cause.
  return error instanceof Error && error.cause instanceof WorkerStuckError;
}
