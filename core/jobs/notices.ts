// Tells the model when its background jobs finish, so it can do other work
// or end its turn instead of polling. Built from the job events alone.

import type { CoreEvent } from "../events.js";
import type { WakeSource } from "../loop.js";

export interface JobNotices extends WakeSource {
  /** Feed every core event through here. */
  observe(event: CoreEvent): void;
}

/** `readTool` is the exposed name of the active tool that reads a job's output, if one is. */
export function createJobNotices(readTool: string | undefined): JobNotices {
  const running = new Map<string, string>(); // background job id → label
  const queue: string[] = [];
  let waiters: Array<() => void> = [];
  const wakeAll = () => {
    const w = waiters;
    waiters = [];
    for (const fn of w) fn();
  };

  return {
    observe(event) {
      switch (event.type) {
        case "job_started":
          if (event.background) running.set(event.jobId, event.label ?? event.command);
          break;
        case "job_promoted":
          // The label is known from job_started, which every job emits first.
          running.set(event.jobId, running.get(event.jobId) ?? event.jobId);
          break;
        case "job_exited": {
          const label = running.get(event.jobId);
          if (label === undefined) break;
          running.delete(event.jobId);
          // A job the model killed itself needs no news.
          if (event.status !== "killed") queue.push(describeExit(event, label, readTool));
          wakeAll();
          break;
        }
        default:
          break;
      }
    },
    take() {
      return queue.splice(0, queue.length);
    },
    async wait(signal) {
      for (;;) {
        if (queue.length) return true;
        if (running.size === 0 || signal.aborted) return false;
        await new Promise<void>((resolve) => {
          const onAbort = () => resolve();
          signal.addEventListener("abort", onAbort, { once: true });
          waiters.push(() => {
            signal.removeEventListener("abort", onAbort);
            resolve();
          });
        });
      }
    },
  };
}

function describeExit(e: Extract<CoreEvent, { type: "job_exited" }>, label: string, readTool: string | undefined): string {
  const how =
    e.status === "timed_out"
      ? "was stopped at its deadline"
      : e.exitCode !== null
        ? `finished with exit code ${e.exitCode}`
        : `ended by signal ${e.signal ?? "unknown"}`;
  const took = e.durationMs === undefined ? "" : ` after ${(e.durationMs / 1000).toFixed(1)}s`;
  return `Background job ${e.jobId} (${label}) ${how}${took}.${readTool ? ` Read its output with ${readTool}.` : ""}`;
}
