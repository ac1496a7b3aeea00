// Yuj `bash`: one command, in the foreground by default. It runs as a job of
// the session's job manager: its own process group, stdin at EOF, output
// spilled to a file and shown bounded. With background work
// enabled, `background: true` returns a proc_id for bash_poll / bash_kill.

import { constants as osConstants } from "node:os";
import { z } from "zod";
import { commandTarget } from "../../core/permissions/match-target.js";
import { EXECUTES, fail, ok, type ToolContext, type ToolDisplay, type ToolEffect, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import type { JobSnapshot } from "../../core/jobs/types.js";
import { NO_JOBS, waitForeground } from "../lib/foreground.js";
import { repoNoticeLine } from "../lib/job-format.js";
import { exitMeaning, interactiveCommand, interactiveRefusal, readSideRoute, shellRefusal } from "../lib/shell-rules.js";
import { sinkView, type SinkText } from "../lib/output-sink.js";
import { commandEffects, commandReads } from "../lib/shell-inspection.js";
import { commandMayCheck, commandVerifies } from "../lib/shell-verification.js";
import { commandPreview } from "../lib/previews.js";
import { commandSummary, str } from "../lib/view.js";

export const bashSchema = z.object({
  cmd: z.string(),
  background: z.boolean().optional(),
});

export { exitMeaning };

const BACKGROUND_DISABLED = "ERROR: background commands are disabled (set [tools].background_enabled = true)";

export const bashTool: ToolHandler<typeof bashSchema> = {
  id: "bash",
  schema: bashSchema,
  effects: new Set<ToolEffect>(["inspect", "execute"]),
  // A background command outlives its call: what it does after the start is
  // never shown as the call's result, so it is not an inspection (required
  // plan mode refuses it, as the reference's read-only check does).
  callEffects: (args) => (args.background ? EXECUTES : commandEffects(args.cmd)),
  touches: (args) => (args.background ? [] : commandReads(args.cmd)),
  matchValue: (args) => commandTarget(args.cmd),
  verifies: (args, result) => !args.background && commandVerifies(args.cmd, result),
  view: {
    card: "foldable",
    summary: (args) => commandSummary(str(args, "cmd")),
    preview: (args) => commandPreview(str(args, "cmd")),
  },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    if (!args.cmd.trim()) return fail("ERROR: cmd is empty");
    if (ctx.signal.aborted) return fail("ERROR: command cancelled");
    const active = ctx.activeTools ?? new Set<string>();
    const refusal = shellRefusal(args.cmd, active, ctx.cwd);
    if (refusal) return fail(refusal.message);
    const tools = ctx.config.tools;
    if (tools.bash_redirect_read_side) {
      const globRefusesUnscoped = tools.search_pagination_enabled && tools.glob_refuse_unscoped_recursive;
      const route = readSideRoute(args.cmd, active, { globRefusesUnscoped, cwd: ctx.cwd });
      if (route) return fail(route.message);
    }
    // After the routes: `less file` is better answered by read than refused.
    const interactive = interactiveCommand(args.cmd);
    if (interactive) return fail(interactiveRefusal(interactive, active.has("terminal_start") ? "terminal_start" : undefined));
    if (args.background) {
      if (!ctx.config.tools.background_enabled) return fail(BACKGROUND_DISABLED);
      const full = limitReached(jobs.list(), ctx.config.tools.background_max_procs);
      if (full) return fail(full);
      const job = jobs.start({ command: args.cmd, cwd: ctx.cwd, background: true, callId: ctx.callId });
      // The reference's words: the id, and the call that reads it.
      const started = ok(`Started background process ${job.id}. Poll it with bash_poll(proc_id='${job.id}').`);
      // A run whose success would be a check can be the check after a change, once it is seen to pass.
      started.background = { job: job.id, state: "started", checks: commandMayCheck(args.cmd) };
      return started;
    }
    return runForeground(args.cmd, ctx);
  },
};

/**
 * The reference's refusal once `max` background commands still run, with
 * what frees a place. A foreground command whose processes stayed behind
 * counts too: it is polled and killed like one.
 */
function limitReached(live: readonly JobSnapshot[], max: number): string | undefined {
  const running = live.filter((j) => j.background || j.leaderExited).map((j) => j.id);
  if (running.length < max) return undefined;
  return (
    `ERROR: background process limit reached (${max}): ${running.join(", ")} still running. ` +
    "Stop one with bash_kill or wait for it to exit (bash_poll) before starting another; [tools].background_max_procs sets the limit."
  );
}

async function runForeground(cmd: string, ctx: ToolContext): Promise<ToolResult> {
  const jobs = ctx.jobs!;
  const tools = ctx.config.tools;
  // 0 is no ceiling: the command runs until it ends or the user cancels it.
  const deadline = tools.bash_timeout > 0 ? { deadlineMs: tools.bash_timeout * 1000 } : {};
  const job = jobs.start({ command: cmd, cwd: ctx.cwd, background: false, callId: ctx.callId, ...deadline });
  const end = await waitForeground(jobs, job.id, Number.POSITIVE_INFINITY, ctx.signal);
  // A cancel that lands after the command ended still wins: the user asked to stop.
  if (end === "cancelled" || ctx.signal.aborted) {
    await jobs.kill(job.id, "cancelled by the user");
    return fail("ERROR: command cancelled");
  }

  let note = "";
  if (end === "leader_exited") {
    // The shell is done but left processes in its group.
    if (tools.background_enabled) {
      ctx.emit({ type: "job_promoted", jobId: job.id, callId: ctx.callId });
      note = `[the command exited but processes it started still run as proc_id ${job.id}; use bash_poll / bash_kill]`;
    } else {
      await jobs.kill(job.id, "left running by a foreground command");
      note = "[processes the command left running in the background were stopped; background work is disabled]";
    }
  }
  // Reading marks the output read for a later bash_poll; the view reads only what it shows.
  const read = await jobs.readNew(job.id, 0);
  const output = sinkView(jobs.log(job.id), read, tools, ctx.config.output.max_output_chars);
  return formatResult(cmd, output, read.snapshot, [note, repoNoticeLine(read.snapshot)].filter(Boolean).join("\n"), tools.bash_timeout);
}

/** The model's text, and the same words around the output the person is shown. */
function formatResult(cmd: string, output: SinkText, snap: JobSnapshot, note: string, timeoutS: number): ToolResult {
  const view = (shown: string, status: "exited" | "timed_out", exitCode?: number): ToolDisplay => ({
    kind: "command",
    command: cmd,
    output: shown,
    status,
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(output.fullOutputPath ? { fullOutputPath: output.fullOutputPath } : {}),
  });
  if (snap.status === "timed_out") {
    const message = [`ERROR: command timed out after ${timeoutS}s`, repoNoticeLine(snap)].filter(Boolean).join("\n");
    return fail(message, view(output.shown ? `${output.shown}\n${message}` : message, "timed_out"));
  }
  const code = snap.exitCode ?? (snap.signal ? 128 + signalNumber(snap.signal) : 0);
  const withNote = (o: string) => [o, note].filter((p) => p.trim() !== "").join("\n");
  if (code === 0) {
    const words = (o: string) => (withNote(o).trim() === "" ? "(command produced no output)" : withNote(o));
    return ok(words(output.text), view(words(output.shown), "exited", 0));
  }
  const meaning = exitMeaning(cmd, code);
  const marker = meaning ? `[exit code: ${code} — ${meaning}]` : `[exit code: ${code}]`;
  const words = (o: string) => (withNote(o).trim() ? `${withNote(o)}\n${marker}` : marker);
  return fail(words(output.text), view(words(output.shown), "exited", code));
}

function signalNumber(name: string): number {
  return (osConstants.signals as Record<string, number>)[name] ?? 0;
}
