// Yuj `bash_kill`: stop one background command's whole process group.

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";
import type { JobManager } from "../../core/jobs/types.js";
import { NO_JOBS } from "../lib/foreground.js";
import { isLive } from "../lib/job-format.js";

export const bashKillSchema = z.object({
  proc_id: z.string(),
});

export function unknownProc(jobs: JobManager, id: string): string {
  const live = jobs.list().map((j) => j.id);
  return `ERROR: unknown background process '${id}'. ` + (live.length ? `Running: ${live.join(", ")}.` : "No background command is running.");
}

export const bashKillTool: ToolHandler<typeof bashKillSchema> = {
  id: "bash_kill",
  schema: bashKillSchema,
  effects: new Set(["stop"]),
  view: { card: "foldable", summary: (args) => str(args, "proc_id") ?? "" },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    const job = jobs.get(args.proc_id);
    if (!job) return fail(unknownProc(jobs, args.proc_id));
    if (!isLive(job)) return ok(`Background process ${job.id} already exited (${job.exitCode ?? `signal ${job.signal ?? "unknown"}`})`);
    const result = await jobs.kill(job.id, "bash_kill");
    // "Killed background process ID", the reference's words, once the group is gone.
    const stopped = result.confirmed
      ? ok(`Killed background process ${job.id} (process group ${job.pid})`)
      : ok(
          `proc_id ${job.id}: teardown unconfirmed — its shell exited and no process it left could be proven to still be in group ${job.pid}, so nothing was signalled`,
        );
    // A stopped run checked nothing.
    stopped.background = { job: job.id, state: "failed" };
    return stopped;
  },
};
