// Tells the model when its background jobs finish, so it can do other work
// or end its turn instead of polling. Built from the job events; a surface
// may word the notice its own way (NoticeStyle) from the job's end.

import type { CoreEvent } from "../events.js";
import type { WakeSource } from "../loop.js";
import { USER_STOP_REASON } from "./types.js";

export interface JobNotices extends WakeSource {
  /** Feed every core event through here. */
  observe(event: CoreEvent): void;
}

/** A background job's end, as its events told it. */
export interface JobEnd {
  exit: Extract<CoreEvent, { type: "job_exited" }>;
  /** The job's name: the description it was started with, else its command. */
  label: string;
  command: string;
  /** The description it was started with, when one was given. */
  description?: string;
}

/** How a surface words the notice, and when it is no longer news. */
export interface NoticeStyle {
  describe(end: JobEnd, readTool: string | undefined): string;
  /** True once the model has seen the job's end another way (a read of it): the notice is dropped. */
  seen?(jobId: string): boolean;
}

/** yuj's own words: one line naming the job, how it ended and the tool that reads it. */
const YUJ_STYLE: NoticeStyle = { describe: describeExit };

interface Started {
  command: string;
  description?: string;
}

/** `readTool` is the exposed name of the active tool that reads a job's output, if one is. */
export function createJobNotices(readTool: string | undefined, style: NoticeStyle = YUJ_STYLE): JobNotices {
  const running = new Map<string, Started>(); // background job id → how it started
  const started = new Map<string, Started>(); // every job id seen starting (a promoted job is known from here)
  const userStopped = new Set<string>(); // jobs the user stopped: their end is news to the model
  let queue: Array<{ jobId: string; text: string }> = [];
  let waiters: Array<() => void> = [];
  const wakeAll = () => {
    const w = waiters;
    waiters = [];
    for (const fn of w) fn();
  };
  /** Drops the notices the model no longer needs. */
  const prune = () => {
    if (style.seen) queue = queue.filter((n) => !style.seen!(n.jobId));
  };

  return {
    observe(event) {
      switch (event.type) {
        case "job_started": {
          const how = { command: event.command, ...(event.label !== undefined ? { description: event.label } : {}) };
          started.set(event.jobId, how);
          if (event.background) running.set(event.jobId, how);
          break;
        }
        case "job_killed":
          if (event.reason?.startsWith(USER_STOP_REASON)) userStopped.add(event.jobId);
          break;
        case "job_promoted":
          // Every job emits job_started first, so how it started is known.
          running.set(event.jobId, started.get(event.jobId) ?? { command: event.jobId });
          break;
        case "job_exited": {
          started.delete(event.jobId);
          const how = running.get(event.jobId);
          if (how === undefined) break;
          running.delete(event.jobId);
          // A job the model killed itself needs no news; one the user stopped does.
          if (event.status !== "killed" || userStopped.delete(event.jobId)) {
            const end: JobEnd = { exit: event, label: how.description ?? how.command, ...how };
            queue.push({ jobId: event.jobId, text: style.describe(end, readTool) });
          }
          wakeAll();
          break;
        }
        default:
          break;
      }
    },
    take() {
      prune();
      const texts = queue.map((n) => n.text);
      queue = [];
      return texts;
    },
    async wait(signal) {
      for (;;) {
        prune();
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

function describeExit({ exit: e, label }: JobEnd, readTool: string | undefined): string {
  const how =
    e.status === "timed_out"
      ? "was stopped at its deadline"
      : e.status === "killed"
        ? "was stopped by the user"
      : e.exitCode !== null
        ? `finished with exit code ${e.exitCode}`
        : `ended by signal ${e.signal ?? "unknown"}`;
  const took = e.durationMs === undefined ? "" : ` after ${(e.durationMs / 1000).toFixed(1)}s`;
  return `Background job ${e.jobId} (${label}) ${how}${took}.${readTool ? ` Read its output with ${readTool}.` : ""}`;
}
