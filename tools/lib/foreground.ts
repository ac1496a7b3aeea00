// Waiting on a foreground command: until it ends, until its shell exits
// leaving processes behind in its group, until its foreground budget runs
// out, or until the caller cancels. The job itself is never touched here.

import type { JobManager } from "../../core/jobs/types.js";

export type ForegroundEnd = "exited" | "leader_exited" | "yielded" | "cancelled";

/** Short enough that a shell leaving children behind is noticed promptly. */
const SLICE_MS = 100;

export async function waitForeground(
  jobs: JobManager,
  id: string,
  yieldMs: number,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<ForegroundEnd> {
  const started = now();
  for (;;) {
    const left = yieldMs - (now() - started);
    if (left <= 0) return "yielded";
    const result = await jobs.wait(id, "exit", Math.min(left, SLICE_MS), signal);
    if (result === "exited") return "exited";
    if (result === "cancelled") return "cancelled";
    if (jobs.get(id)?.leaderExited) return "leader_exited";
  }
}

export const NO_JOBS = "ERROR: commands are not available in this session (no job manager)";
