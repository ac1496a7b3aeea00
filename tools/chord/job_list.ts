// Chord `job_list`: the jobs this session can read or stop.

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { NO_JOBS } from "../lib/foreground.js";
import { jobRow } from "../lib/job-format.js";
import { reachableJobs } from "../lib/chord/job-access.js";
import { MAIN_READER } from "../../core/jobs/types.js";

export const jobListSchema = z.object({
  include_finished: z.boolean().optional(),
});

export const jobListTool: ToolHandler<typeof jobListSchema> = {
  id: "job_list",
  schema: jobListSchema,
  effects: INSPECTS,
  view: { card: "foldable", summary: () => "" },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    // Only what this agent may read or stop: a worker never sees a sibling's jobs.
    const agent = ctx.orchestration?.self ?? MAIN_READER;
    const list = reachableJobs(jobs, agent, args.include_finished ?? false);
    if (list.length === 0) {
      // Chord's words when there is nothing; finished jobs left out are counted.
      const finished = args.include_finished ? 0 : reachableJobs(jobs, agent, true).length;
      return ok(finished ? `no running background jobs; pass include_finished: true to see ${finished} finished` : "no background jobs");
    }
    const now = ctx.services.clock.now();
    const header = "id | status | elapsed | quiet | deadline | label";
    return ok([header, ...list.map((j) => jobRow(j, now))].join("\n"));
  },
};
