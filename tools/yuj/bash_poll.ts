// Yuj `bash_poll`: new output of one background command since the previous
// poll, and its exit status once known. Waits up to timeout_s for something
// new; the usual output filters and size limit apply.

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";
import { NO_JOBS } from "../lib/foreground.js";
import { isLive, repoNoticeLine } from "../lib/job-format.js";
import { sinkView } from "../lib/output-sink.js";
import { unknownProc } from "./bash_kill.js";

export const bashPollSchema = z.object({
  proc_id: z.string(),
  timeout_s: z.number().min(0).optional(),
});

const DEFAULT_WAIT_S = 5;

export const bashPollTool: ToolHandler<typeof bashPollSchema> = {
  id: "bash_poll",
  schema: bashPollSchema,
  effects: INSPECTS,
  role: "read_output",
  view: { card: "foldable", summary: (args) => str(args, "proc_id") ?? "" },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    const job = jobs.get(args.proc_id);
    if (!job) return fail(unknownProc(jobs, args.proc_id));
    // The configured cap wins over any wait the call asks for.
    const waitS = Math.min(args.timeout_s ?? DEFAULT_WAIT_S, ctx.config.tools.background_poll_timeout);
    if (isLive(job) && waitS > 0) await jobs.wait(job.id, "output", waitS * 1000, ctx.signal);
    // The model's view of the new bytes comes from the file, so the preview
    // the manager makes is not needed; its cursor still has to move.
    const read = await jobs.readNew(job.id, 0);
    const output = sinkView(jobs.log(job.id), read, ctx.config.tools, ctx.config.output.max_output_chars);
    const snap = read.snapshot;
    // The reference's footer: `[background process ID: running]`, `… exited (0)]`.
    const state = isLive(snap)
      ? "running"
      : snap.status === "timed_out"
        ? "timed out"
        : snap.status === "killed"
          ? `killed${snap.exitCode !== null ? ` (exit code ${snap.exitCode})` : ""}`
          : `exited (${snap.exitCode ?? `signal ${snap.signal}`})`;
    const status = `[background process ${job.id}: ${state}]`;
    // Nothing new: the footer alone, as the reference renders a poll.
    const words = (o: string) => [o.trim() ? o.replace(/\n$/, "") : "", status, repoNoticeLine(snap)].filter(Boolean).join("\n");
    const result = ok(words(output.text), { kind: "text", text: words(output.shown) });
    result.background = { job: job.id, state: isLive(snap) ? "running" : snap.status === "exited" && snap.exitCode === 0 ? "passed" : "failed" };
    return result;
  },
};
