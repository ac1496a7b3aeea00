// Chord `job_kill`: stop a job and everything in its process group. A
// teardown that cannot be proven (the group number may have been reused)
// is reported as unconfirmed, never guessed.

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";
import type { JobManager } from "../../core/jobs/types.js";
import { NO_JOBS } from "../lib/foreground.js";
import { isLive, statusLine } from "../lib/job-format.js";
import { notOwned, reachableBy, reachableJobs } from "../lib/chord/job-access.js";
import { MAIN_READER } from "../../core/jobs/types.js";

export const jobKillSchema = z.object({
  job_id: z.string(),
  reason: z.string().optional(),
});

/** A job id this agent cannot act on: unknown, or (in a worker) another worker's. */
export function unreachableJob(jobs: JobManager, id: string, agent: string): string | undefined {
  const job = jobs.get(id);
  if (!job) return unknownJob(jobs, id, agent);
  return reachableBy(job, agent) ? undefined : notOwned(id);
}

function unknownJob(jobs: JobManager, id: string, agent: string): string {
  const known = reachableJobs(jobs, agent, true).map((j) => j.id);
  return `ERROR: job ${id} not found. ` + (known.length ? `Known jobs: ${known.join(", ")}.` : "No jobs have been started.");
}

export const jobKillTool: ToolHandler<typeof jobKillSchema> = {
  id: "job_kill",
  schema: jobKillSchema,
  effects: new Set(["stop"]),
  view: { card: "foldable", summary: (args) => str(args, "job_id") ?? "" },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    const refused = unreachableJob(jobs, args.job_id, ctx.orchestration?.self ?? MAIN_READER);
    if (refused) return fail(refused);
    const job = jobs.get(args.job_id)!;
    if (!isLive(job)) return ok(`job ${job.id} already finished\n${statusLine(job)}`);
    const reason = args.reason?.trim() || "cancelled by job_kill";
    const result = await jobs.kill(job.id, reason);
    if (!result.confirmed) {
      return ok(
        `Teardown of job ${job.id} is unconfirmed: its command exited and no process recorded in its process group ` +
          `${job.pid} could be proven to still be there, so the group was not signalled (its number may have been reused). ` +
          `Processes that left the group on purpose (setsid) are not tracked. ${statusLine(result.snapshot)}`,
      );
    }
    // Chord's words for a stop (`job … stopping (reason)`); yuj waits for the
    // group to be gone, so the status line already says how it ended.
    return ok(`job ${job.id} stopping (${reason}); it has stopped\n${statusLine(result.snapshot)}`);
  },
};
