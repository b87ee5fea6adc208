import { GateState } from '../src/indexing/workerProtocol.js';

/** Brackets a worker's use of tree-sitter, so that its coordinator never terminates it inside (see GateState). */
export interface TreeSitterGate {
  enter(): void;
  leave(): void;
}

/** For callers no coordinator can terminate: the suspect checker, tests, a host's thread. */
export const UNGUARDED: TreeSitterGate = { enter() {}, leave() {} };

/** The gate of a shard, over the buffer its request brought. */
export function treeSitterGate(buffer: SharedArrayBuffer): TreeSitterGate {
  const state = new Int32Array(buffer);
  return {
    enter() {
      if (Atomics.compareExchange(state, 0, GateState.OUTSIDE, GateState.IN_TREE_SITTER) === GateState.OUTSIDE) return;
      // Claimed: the coordinator is terminating this thread, which must not be inside tree-sitter then.
      for (;;) Atomics.wait(state, 0, GateState.CLAIMED);
    },
    leave() {
      Atomics.store(state, 0, GateState.OUTSIDE);
    },
  };
}
