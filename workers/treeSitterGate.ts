import { GATE_EXITS, GATE_STATE, GateState } from '../src/indexing/workerProtocol.js';

/** Brackets a worker's use of tree-sitter, so that its coordinator never terminates it inside (see GateState). */
export interface TreeSitterGate {
  enter(): void;
  leave(): void;
  /** The shard's work is over: only its reply is left to send. */
  done(): void;
}

/** For callers no coordinator can terminate: the suspect checker, tests, a host's thread. */
export const UNGUARDED: TreeSitterGate = { enter() {}, leave() {}, done() {} };

/** The gate of a shard, over the buffer its request brought. */
export function treeSitterGate(buffer: SharedArrayBuffer): TreeSitterGate {
  const state = new Int32Array(buffer);
  return {
    enter() {
      if (Atomics.compareExchange(state, GATE_STATE, GateState.OUTSIDE, GateState.IN_TREE_SITTER) === GateState.OUTSIDE) return;
      // Claimed: the coordinator is terminating this thread, which must not be inside tree-sitter then.
      for (;;) Atomics.wait(state, GATE_STATE, GateState.CLAIMED);
    },
    leave() {
      Atomics.add(state, GATE_EXITS, 1);
      Atomics.store(state, GATE_STATE, GateState.OUTSIDE);
    },
    done() {
      // Unless claimed already: then the coordinator is terminating this thread anyway.
      Atomics.compareExchange(state, GATE_STATE, GateState.OUTSIDE, GateState.DONE);
    },
  };
}
