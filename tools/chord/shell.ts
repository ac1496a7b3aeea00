// Chord `shell`: one non-interactive command in the foreground or as a
// background job. A foreground command that outlives yield_time_ms, or
// whose shell exits while processes it started still run, is handed back as
// a job so no turn ever blocks on it (Chord "Command execution and timeouts").

import { z } from "zod";
import { commandTarget } from "../../core/permissions/match-target.js";
import { fail, ok, type ToolContext, type ToolDisplay, type ToolEffect, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import { commandEffects, commandReads } from "../lib/shell-inspection.js";
import { commandVerifies } from "../lib/shell-verification.js";
import { commandPreview } from "../lib/previews.js";
import { commandSummary, str } from "../lib/view.js";
import { MAIN_READER, type JobSnapshot } from "../../core/jobs/types.js";
import { resolveInCwd } from "../lib/paths.js";
import { NO_JOBS, waitForeground } from "../lib/foreground.js";
import { formatDuration, repoNoticeLine, statusLine } from "../lib/job-format.js";
import { failureDiagnosis } from "../lib/shell/runtime-failure.js";
import { interactiveCommand, interactiveRefusal, isNonPromotable, needsPreservationReminder, PRESERVATION_REMINDER } from "../lib/shell-rules.js";

export const shellSchema = z.object({
  command: z.string(),
  description: z.string().optional(),
  workdir: z.string().optional(),
  run_in_background: z.boolean().optional(),
  yield_time_ms: z.number().int().min(0).optional(),
  timeout_ms: z.number().int().min(0).optional(),
});

export const FOREGROUND_TIMEOUT_MS = 600_000;
export const BACKGROUND_TIMEOUT_CAP_MS = 21_600_000;
export const DEFAULT_YIELD_MS = 90_000;
/** Pipelines through tail/grep that ran at least this long get the reminder. */
const REMINDER_AFTER_MS = 3000;
const PREVIEW_BYTES = 16 * 1024;

type Args = z.infer<typeof shellSchema>;

export const shellTool: ToolHandler<typeof shellSchema> = {
  id: "shell",
  schema: shellSchema,
  effects: new Set<ToolEffect>(["inspect", "execute"]),
  callEffects: (args) => commandEffects(args.command),
  // Chord's shell may run below the task directory: a file it reads is found from there.
  touches: (args) => (args.run_in_background ? [] : commandReads(args.command, args.workdir)),
  // The workdir is not part of the value: a rule fences the command.
  matchValue: (args) => commandTarget(args.command),
  // A command handed over to a background job has not finished, so it has checked nothing yet.
  verifies: (args, result) =>
    !args.run_in_background && commandVerifies(args.command, result) && !/continues as background job /.test(result.modelText),
  view: {
    card: "foldable",
    summary: (args) => commandSummary(str(args, "command")),
    preview: (args) => commandPreview(str(args, "command")),
  },
  async run(args, ctx) {
    const jobs = ctx.jobs;
    if (!jobs) return fail(NO_JOBS);
    if (!args.command.trim()) return fail("ERROR: command is empty");
    const interactive = interactiveCommand(args.command);
    if (interactive) return fail(interactiveRefusal(interactive));
    const cwd = await workdir(args, ctx);
    if (typeof cwd !== "string") return cwd;
    return args.run_in_background ? startBackground(args, cwd, ctx) : runForeground(args, cwd, ctx);
  },
};

async function workdir(args: Args, ctx: ToolContext): Promise<string | ToolResult> {
  if (!args.workdir) return ctx.cwd;
  const where = await resolveInCwd(ctx.services.fs, ctx.cwd, args.workdir);
  if (!where.ok) return fail(where.error);
  // Refused before anything starts, in Chord's words.
  try {
    if ((await ctx.services.fs.stat(where.abs)).isDirectory()) return where.abs;
  } catch {
    return fail(`ERROR: invalid workdir: path not found: ${args.workdir}`);
  }
  return fail(`ERROR: invalid workdir: path is not a directory: ${args.workdir}`);
}

function startBackground(args: Args, cwd: string, ctx: ToolContext): ToolResult {
  const notes: string[] = [];
  let deadlineMs: number | undefined;
  if (args.timeout_ms !== undefined && args.timeout_ms > 0) {
    deadlineMs = Math.min(args.timeout_ms, BACKGROUND_TIMEOUT_CAP_MS);
    if (args.timeout_ms > BACKGROUND_TIMEOUT_CAP_MS) notes.push(`timeout_ms capped at ${BACKGROUND_TIMEOUT_CAP_MS} (6 h)`);
  }
  const job = ctx.jobs!.start({
    command: args.command,
    cwd,
    background: true,
    callId: ctx.callId,
    // Whose job it is: a worker reaches its own jobs and the main agent's (job-access.ts).
    owner: ctx.orchestration?.self ?? MAIN_READER,
    ...(args.description ? { label: args.description } : {}),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  });
  const lines = [
    // Chord's handle line: `[background job <id>]` first, so the id is found the same way.
    `[background job ${job.id}] started in the background: ${job.label}`,
    // Chord states a deadline only when there is one, and then what happens at it.
    deadlineMs === undefined ? "It runs without a deadline until it ends or is stopped." : `deadline: ${msWords(deadlineMs)} from start, then it is killed`,
    ...notes.map((n) => `Note: ${n}`),
    "You will be notified when it finishes. Read its output with job_output; stop it with job_kill.",
  ];
  return ok(lines.join("\n"), {
    kind: "command",
    command: args.command,
    output: `started as background job ${job.id}; ${deadlineMs === undefined ? "no deadline" : `deadline ${formatDuration(deadlineMs)}`}`,
    status: "background",
    jobId: job.id,
  });
}

async function runForeground(args: Args, cwd: string, ctx: ToolContext): Promise<ToolResult> {
  const jobs = ctx.jobs!;
  // A command made only of waits and short git queries gains nothing from
  // running on in the background, so it keeps a deadline and never yields.
  const pinned = isNonPromotable(args.command);
  const notes: string[] = [];
  let deadlineMs: number | undefined = FOREGROUND_TIMEOUT_MS;
  if (args.timeout_ms !== undefined) {
    // No deadline needs a yield timer that hands the command to a job; without
    // one (a pinned command, or yield_time_ms: 0) the turn would wait unbounded.
    const keepsDefault = args.timeout_ms === 0 && (pinned || args.yield_time_ms === 0);
    if (args.timeout_ms === 0) deadlineMs = keepsDefault ? FOREGROUND_TIMEOUT_MS : undefined;
    else deadlineMs = Math.min(args.timeout_ms, FOREGROUND_TIMEOUT_MS);
    if (args.timeout_ms > FOREGROUND_TIMEOUT_MS) notes.push(`timeout_ms capped at ${FOREGROUND_TIMEOUT_MS}`);
    if (keepsDefault) {
      notes.push(
        pinned
          ? "this command cannot run on in the background, so it keeps the default deadline"
          : "with yield_time_ms: 0 nothing hands this command to the background, so it keeps the default deadline",
      );
    }
  }
  const yieldMs = foregroundBudget(pinned, args.yield_time_ms, deadlineMs);
  const job = jobs.start({
    command: args.command,
    cwd,
    background: false,
    callId: ctx.callId,
    owner: ctx.orchestration?.self ?? MAIN_READER,
    ...(args.description ? { label: args.description } : {}),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  });

  const end = await waitForeground(jobs, job.id, yieldMs, ctx.signal);
  // A cancel that lands after the command ended still wins: the user asked to stop.
  if (end === "cancelled" || ctx.signal.aborted) {
    await jobs.kill(job.id, "cancelled by the user");
    return fail("ERROR: command cancelled");
  }
  // Reached its deadline just as its budget ran out: it ends timed out.
  if (jobs.get(job.id)?.status === "stopping") await jobs.wait(job.id, "exit", FOREGROUND_TIMEOUT_MS, ctx.signal);
  // The calling agent's read: what it is shown here, a later job_output of its own does not show again.
  const read = await jobs.readNew(job.id, PREVIEW_BYTES, ctx.orchestration?.self ?? MAIN_READER);
  const output = read.text.replace(/\n+$/, "");
  const snap = read.snapshot;
  const tookMs = (snap.endedAt ?? Date.now()) - snap.startedAt;

  if ((end === "yielded" || end === "leader_exited") && snap.status === "running") {
    ctx.emit({ type: "job_promoted", jobId: job.id, callId: ctx.callId });
    const why =
      end === "yielded"
        ? `still running after the ${msWords(yieldMs)} foreground budget (${formatDuration(tookMs)}): it continues as background job ${job.id}.`
        : `the command exited, but processes it started still run: they continue as background job ${job.id}.`;
    return ok(
      joinParts(
        `[background job ${job.id}] ${why}`,
        output || "(no output yet)",
        "You will be notified when it finishes. Read its output with job_output; stop it with job_kill.",
        ...notes,
      ),
      { kind: "command", command: args.command, output: joinParts(output, why), status: "background", jobId: job.id },
    );
  }
  return finishedResult(args.command, output, snap, tookMs, notes);
}

/**
 * How long a foreground command may run before it is handed back as a job.
 * yield_time_ms: 0 turns the time limit off (a shell that exits leaving its
 * group running is still handed back). A deadline that comes first wins: the
 * command is then reported timed out, never as a job that times out later.
 */
function foregroundBudget(pinned: boolean, yieldTimeMs: number | undefined, deadlineMs: number | undefined): number {
  if (pinned || yieldTimeMs === 0) return Number.POSITIVE_INFINITY;
  const budget = yieldTimeMs ?? DEFAULT_YIELD_MS;
  return deadlineMs !== undefined && deadlineMs <= budget ? Number.POSITIVE_INFINITY : budget;
}

/** The deadline the command ran under, as it was given: `1s`, `1500ms`. */
function limitWords(snap: JobSnapshot): string {
  if (snap.deadlineAt === undefined) return "its deadline";
  const ms = Math.round(snap.deadlineAt - snap.startedAt);
  return msWords(ms);
}

/** A limit as it was given: `90s`, `1500ms`. */
const msWords = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

function finishedResult(command: string, output: string, snap: JobSnapshot, tookMs: number, notes: string[]): ToolResult {
  const parts = [output || "(no output)", statusLine(snap), repoNoticeLine(snap)];
  // Whole seconds, rounded, as Chord notes them.
  if (tookMs >= 1000) parts.push(`(command took ${Math.round(tookMs / 1000)}s)`);
  if (snap.status === "timed_out") {
    parts.push(
      `The command timed out after ${limitWords(snap)} and was stopped. Re-running it unchanged will hit the same deadline: ` +
        `give a larger timeout_ms (at most ${FOREGROUND_TIMEOUT_MS} in the foreground), run it with run_in_background: true, or narrow what it runs.`,
    );
  }
  if (snap.status === "exited" && snap.exitCode !== null && snap.exitCode !== 0) {
    parts.push(`The command failed with exit code ${snap.exitCode}.`, ...failureDiagnosis(command, output, snap.exitCode));
  }
  if (tookMs >= REMINDER_AFTER_MS && needsPreservationReminder(command)) parts.push(PRESERVATION_REMINDER);
  parts.push(...notes.map((n) => `Note: ${n}`));
  const text = joinParts(...parts);
  // The card shows the output and the status in words; the bracketed lines are for the model.
  const shown = joinParts(output, snap.status === "timed_out" ? "stopped at its deadline" : "", ...notes);
  const display: ToolDisplay = {
    kind: "command",
    command,
    output: shown,
    status: snap.status === "timed_out" ? "timed_out" : snap.status === "killed" ? "killed" : "exited",
    exitCode: snap.exitCode,
  };
  return snap.status === "exited" && snap.exitCode === 0 ? ok(text, display) : fail(text, display);
}

function joinParts(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("\n");
}
