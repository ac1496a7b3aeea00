// Chord `job_output`: a background job's output since the calling agent's
// previous read, then its [status: ...] line. Each agent (the main agent,
// each worker) reads through its own cursor and has its own polling count, so
// two agents reading one job each see all of its output. Waits are bounded;
// an expired wait is not an error. Repeated empty non-blocking reads are
// called polling, then refused.

import { z } from "zod";
import { MAIN_READER } from "../../core/jobs/types.js";
import { memoryKey } from "../../core/session-memory.js";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";
import { NO_JOBS } from "../lib/foreground.js";
import { formatElapsed, isLive, quietWords, repoNoticeLine, statusLine } from "../lib/job-format.js";
import { unreachableJob } from "./job_kill.js";

export const jobOutputSchema = z.object({
  job_id: z.string(),
  wait: z.enum(["none", "output", "exit"]).optional(),
});

export const MAX_WAIT_MS = 30_000;
const PREVIEW_BYTES = 16 * 1024;
/** The second empty non-blocking read is called polling; the third is refused. */
const POLLING_NOTICE_AT = 2;
const POLLING_REJECT_AT = 3;

/**
 * How to wait instead of polling, in the words Chord's own description and
 * polling replies share (the profile's job_output description says it too).
 */
const WAIT_GUIDANCE =
  "Use `wait: output` when the next step needs an output chunk expected within the wait cap; the job may keep running. " +
  "Use `wait: exit` when the next step needs a terminal result expected within the cap. " +
  "Renew `wait: output` only while new chunks advance the next step; progress logs alone do not justify renewals when only the final result matters. " +
  "For your own jobs, do other work or end the turn and await the completion notification instead of repeatedly waiting for a final result. " +
  "Reading another agent's job does not subscribe you to its completion notification; coordinate with its owner instead.";

// Consecutive empty non-blocking reads, per reading agent and job id, in the session's memory.
const EMPTY_READS = memoryKey("job_output empty reads", () => new Map<string, number>());

export const jobOutputTool: ToolHandler<typeof jobOutputSchema> = {
  id: "job_output",
  schema: jobOutputSchema,
  effects: INSPECTS,
  role: "read_output",
  view: { card: "foldable", summary: (args) => str(args, "job_id") ?? "" },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    const reader = ctx.orchestration?.self ?? MAIN_READER;
    const refused = unreachableJob(jobs, args.job_id, reader);
    if (refused) return fail(refused);
    const before = jobs.get(args.job_id)!;
    const counts = ctx.memory.of(EMPTY_READS);
    const countKey = `${reader}\0${args.job_id}`;

    const wait = args.wait ?? "none";
    let notice = "";
    if (wait !== "none" && isLive(before)) {
      const result = await jobs.wait(args.job_id, wait === "exit" ? "exit" : "output", MAX_WAIT_MS, ctx.signal, reader);
      if (result === "timeout" || result === "cancelled") {
        const now = jobs.get(args.job_id)!;
        const how = result === "timeout" ? `timed out after ${formatElapsed(MAX_WAIT_MS)}` : "was cancelled by the caller";
        notice = `[notice] wait: ${wait} ${how}; the job is still running, ${quietWords(now, ctx.services.clock.now())}`;
      }
    }
    const read = await jobs.readNew(args.job_id, PREVIEW_BYTES, reader);
    const live = isLive(read.snapshot);

    if (wait === "none" && read.newBytes === 0 && live) {
      const n = (counts.get(countKey) ?? 0) + 1;
      counts.set(countKey, n);
      if (n >= POLLING_REJECT_AT) {
        return fail(
          `ERROR: Tool call rejected automatically: job ${args.job_id} produced no new output across ${n} consecutive non-blocking job_output reads. ` +
            `Stop polling. ${WAIT_GUIDANCE}\n${statusLine(read.snapshot)}`,
        );
      }
      // Nothing new is just the status line, as in Chord; a notice comes before it.
      const lines: string[] = [];
      if (n >= POLLING_NOTICE_AT) {
        lines.push(`[notice] no new output across ${n} consecutive non-blocking reads; stop polling. ${WAIT_GUIDANCE}`);
      }
      return ok([...lines, statusLine(read.snapshot)].join("\n"));
    }
    counts.delete(countKey);
    // Every line after the output is a meta line (`[notice] …`, then `[status: …]`), never mistaken for output.
    const body = read.text.replace(/\n+$/, "");
    return ok([body, notice, repoNoticeLine(read.snapshot), statusLine(read.snapshot)].filter(Boolean).join("\n"));
  },
};
