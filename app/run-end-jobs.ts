// Background jobs when a headless run ends. Nobody is there to stop a job the
// model left running (`sleep 1000`, a dev server), and waiting for it would
// keep yuj alive forever, so by default the run ends when the model does:
// every job still running is stopped and the final output names it. With
// --keep-jobs yuj stays until the jobs finish instead — the model is woken
// by each finish while it can still act, and once the run is over yuj just
// waits (Ctrl+C or SIGTERM stops the wait and the jobs).

import type { JobManager, JobSnapshot } from "../core/jobs/types.js";
import type { WakeSource } from "../core/loop.js";
import type { Emit } from "../core/events.js";

/** The loop's wake source: without --keep-jobs a model that ends its turn is not waited for. */
export function headlessWake(notices: WakeSource, keepJobs: boolean): WakeSource {
  if (keepJobs) return notices;
  return { take: () => notices.take(), wait: async () => false };
}

const WAIT_SLICE_MS = 60_000;
const named = (j: JobSnapshot) => `${j.id} (${j.label})`;
const list = (jobs: JobSnapshot[]) => jobs.map(named).join(", ");

/**
 * After the run: wait for the jobs still running (keepJobs) or stop them,
 * and say which in a notice. Returns once none runs, or the signal fired.
 */
export async function settleJobsAtRunEnd(jobs: JobManager, emit: Emit, keepJobs: boolean, signal: AbortSignal): Promise<void> {
  const live = jobs.list();
  if (live.length === 0) return;
  if (keepJobs && !signal.aborted) {
    emit({
      type: "notice",
      level: "info",
      text: `--keep-jobs: waiting for ${live.length === 1 ? "background job" : "background jobs"} ${list(live)} to finish; Ctrl+C stops ${live.length === 1 ? "it" : "them"}`,
    });
    for (const job of live) {
      while ((await jobs.wait(job.id, "exit", WAIT_SLICE_MS, signal)) === "timeout");
      if (signal.aborted) break;
    }
    if (!signal.aborted) {
      const ended = live.map((j) => jobs.get(j.id)!);
      emit({ type: "notice", level: "info", text: `background ${ended.length === 1 ? "job" : "jobs"} finished: ${ended.map(exitText).join(", ")}` });
      return;
    }
  }
  const stopping = jobs.list();
  if (stopping.length === 0) return;
  const results = await Promise.all(stopping.map((j) => jobs.kill(j.id, "run ended")));
  const unconfirmed = results.filter((r) => !r.confirmed).map((r) => r.snapshot.id);
  const one = stopping.length === 1;
  emit({
    type: "notice",
    level: "warning",
    text:
      `the run ended while ${one ? "background job" : "background jobs"} ${list(stopping)} ${one ? "was" : "were"} running: ` +
      `stopped ${one ? "it" : "them"}` +
      (unconfirmed.length ? ` (${unconfirmed.join(", ")}: could not be confirmed, its process group was gone or reused)` : "") +
      (keepJobs ? "" : ". Pass --keep-jobs to keep yuj running until background jobs finish."),
  });
}

function exitText(j: JobSnapshot): string {
  const how = j.status === "timed_out" ? "stopped at its deadline" : j.exitCode !== null ? `exit code ${j.exitCode}` : `signal ${j.signal ?? "unknown"}`;
  return `${j.id} ${how}`;
}
