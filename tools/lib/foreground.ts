// Waiting on a foreground command: until it ends, until its shell exits
// leaving processes behind in its group, until its foreground budget runs
// out, or until the caller cancels. The job itself is never touched here.
//
// The budget counts from the job's own start, and it only runs out on a
// command that is still running: on a busy machine the timer can fire
// before yuj has noticed that a short command already exited (its exit sits
// unread behind the timer), so the group leader's state is looked up in
// /proc before a command is handed back as a job. A command that is being
// stopped (its deadline passed) is waited for too: it ends timed out, it
// does not carry on as a job.

import type { JobManager } from "../../core/jobs/types.js";
import { isZombie, readStat } from "../../core/jobs/proc.js";

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
  const started = jobs.get(id)?.startedAt ?? now();
  for (;;) {
    const left = yieldMs - (now() - started);
    if (left <= 0 && stillRunning(jobs, id)) return "yielded";
    const result = await jobs.wait(id, "exit", Math.max(1, Math.min(left, SLICE_MS)), signal);
    if (result === "exited") return "exited";
    if (result === "cancelled") return "cancelled";
    if (jobs.get(id)?.leaderExited) return "leader_exited";
  }
}

/** The command's shell still runs and nobody is stopping it. */
function stillRunning(jobs: JobManager, id: string): boolean {
  const snap = jobs.get(id);
  if (!snap || snap.status !== "running" || snap.leaderExited) return false;
  // Without /proc (other platforms) nothing can be looked up: the timer decides.
  if (readStat(process.pid) === undefined) return true;
  const leader = readStat(snap.pid);
  return leader !== undefined && !isZombie(leader);
}

export const NO_JOBS = "ERROR: commands are not available in this session (no job manager)";
