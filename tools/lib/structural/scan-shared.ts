// What a directory search's threads share: the batches of files, and two
// counters in shared memory that every thread reads and writes with atomic
// operations: the next batch not yet claimed, and the first batch from
// which no match line is wanted (the batches before it already hold the
// page's matches). A module of its own, so a worker loads nothing else.

import type { FileJob, FileOutcome } from "./scan-file.js";
import type { LanguageName } from "./languages.js";

/**
 * Files per batch: small, so the threads finish close together (the last
 * batch is the only one a thread can be left waiting for), yet enough that
 * claiming and answering one is a small share of its time.
 */
const BATCH_FILES = 4;

/** Indices into the shared counters. */
export const NEXT_BATCH = 0;
export const UNRENDERED_FROM = 1;
/** How many batches may still be claimed: all of them, until the search stops. */
const CLAIMABLE = 2;

export interface WorkerSetup {
  language: LanguageName;
  query: string;
  /** The search's own thread compiled its runtime whole with TurboFan: load the same (see grammars.ts). */
  optimized: boolean;
  batches: readonly FileJob[][];
  /** The Int32 counters, as `sharedState` makes them. */
  state: SharedArrayBuffer;
}

/** One batch's outcomes, or (batch -1) the worker is ready and found no batch left. */
export type WorkerReply = { ok: true; batch: number; outcomes: FileOutcome[] } | { ok: false; error: string };

export function batchesOf(jobs: readonly FileJob[]): FileJob[][] {
  const batches: FileJob[][] = [];
  for (let i = 0; i < jobs.length; i += BATCH_FILES) batches.push(jobs.slice(i, i + BATCH_FILES));
  return batches;
}

export function sharedState(batchCount: number): Int32Array {
  const state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  state[UNRENDERED_FROM] = batchCount;
  state[CLAIMABLE] = batchCount;
  return state;
}

/** The next batch for this thread, or -1 when none is left (or the search has stopped). */
export function claimBatch(state: Int32Array): number {
  const batch = Atomics.add(state, NEXT_BATCH, 1);
  return batch < Atomics.load(state, CLAIMABLE) ? batch : -1;
}

/** No thread claims another batch. */
export function stopClaims(state: Int32Array): void {
  Atomics.store(state, CLAIMABLE, 0);
}

/** Whether the search wants the match lines of this batch's files (set from the lines wanted, see scan-pool). */
export function linesWanted(state: Int32Array, batch: number): boolean {
  return batch < Atomics.load(state, UNRENDERED_FROM);
}
