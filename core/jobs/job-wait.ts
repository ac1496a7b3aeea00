// Waiting on one job: until it exits, or until it has output the waiting reader has not read.

import { clockTimer, type Clock } from "../services.js";
import type { WaitResult } from "./types.js";
import type { Job } from "./job-life.js";
import { isLive } from "./snapshot.js";

/** How long an output wait lets a burst of output go on before it wakes. */
const OUTPUT_SETTLE_MS = 25;

/** `timeoutMs` counts on `clock` (the session's: a test moves it). */
export function waitForJob(job: Job, until: "exit" | "output", timeoutMs: number, clock: Clock, signal: AbortSignal | undefined, reader: string): Promise<WaitResult> {
  const hasNew = () => job.out.unreadBy(reader);
  return new Promise<WaitResult>((resolve) => {
    if (!isLive(job.snap.status)) return resolve("exited");
    if (until === "output" && hasNew()) return resolve("output");
    if (signal?.aborted) return resolve("cancelled");
    let settle: NodeJS.Timeout | undefined;
    const done = (result: WaitResult) => {
      timer.cancel();
      clearTimeout(settle);
      job.listeners.delete(listener);
      signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    // New output wakes the wait a moment later, so the rest of a burst (and
    // the exit of a command that just printed its last line) comes with it.
    const listener = () => {
      if (!isLive(job.snap.status)) return done("exited");
      if (until === "output" && hasNew()) settle ??= setTimeout(() => done("output"), OUTPUT_SETTLE_MS);
    };
    const onAbort = () => done("cancelled");
    const timer = clockTimer(clock, timeoutMs, () => done("timeout"));
    job.listeners.add(listener);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
