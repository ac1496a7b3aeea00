// The finish rule: with done_guard_enabled, the finish tool is refused
// while the session lacks what the config requires — a file change
// (done_require_mutation) and a check that ran after the last change
// (done_require_verify). The refusal says exactly what is still missing.
//
// A change is a successful call whose tool says it changed a file (writes,
// updates, creates or deletes it), or a file change a command made: what
// `git status` lists differently after a call of a tool that runs commands
// (or lets a background one run on while it waits or stops it) than before
// it, or at the finish than when the run started (a background job's
// writes). A check is a successful call whose tool says it verified the work
// (a command whose exit status is the work's, see shell-verification.ts; a
// test run that passed). A check that writes files of its own (a report, a
// cache) is still a check of what it was given; one that rewrites a file the
// model changed (a formatter over an edited file) is not, and that rewrite
// needs a check of its own. A check that runs again and fails takes back
// what its earlier pass showed. A background command is a
// check when it started after the last change, was seen to pass and nothing
// changed since (background-checks.ts). The plan file (.solver/plan.md) is harness state,
// never a change. With no change at all there is nothing to check, so
// done_require_verify alone does not hold the finish back;
// done_require_mutation is the knob for that.

import * as path from "node:path";
import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { ToolResult } from "../../core/tool-types.js";
import type { FileSystem } from "../../core/services.js";
import { gitRunner, type GitRunner } from "../../core/git.js";
import { PLAN_FILE } from "../lib/plan-file.js";
import { resolveInCwd } from "../lib/paths.js";
import { CHANGES, type GuardContext } from "../../core/guards/types.js";
import { changedBetween, worktreeState, type WorktreeState } from "./worktree-changes.js";
import { backgroundRuns, type ChangedFile } from "./background-checks.js";

export const doneText = {
  noChange: (tool: string) =>
    "ERROR: done_guard: no file has been changed yet — make the change the task asks for " +
    `(with the file tools, or a command that writes files) before calling ${tool}.`,
  unchecked: (paths: readonly string[], tool: string) =>
    `ERROR: done_guard: nothing has checked the last change (${paths.join(", ")}) — ` +
    `run the tests or a command that exercises it, then call ${tool}. ` +
    "Only a command whose exit status is its own counts: not piped into another, not after || or before a ; command.",
};

export interface DoneGuardOptions {
  fs: FileSystem;
  requireMutation: boolean;
  requireVerify: boolean;
  /** Runs git for the project's status; yuj's quiet runner by default. */
  git?: GitRunner;
}

/**
 * Calls of a tool that runs commands, or that reads or stops a background
 * one (which writes on while it is waited on): what they change is seen in
 * git status. Asked of the tool, not the call, so a command that only looks
 * (`ls`) is watched all the same.
 */
function runsCommands(call: GuardCall, ctx: GuardContext): boolean {
  const handler = ctx.handlers.get(call.tool);
  if (!handler) return false;
  return handler.effects.has("execute") || handler.effects.has("stop") || handler.role === "read_output";
}

export function createDoneGuard(opts: DoneGuardOptions): Guard {
  const git = opts.git ?? gitRunner();
  /** Paths of the last successful change; empty until the first one. */
  let lastChange: string[] = [];
  let checkedSinceChange = false;
  /** Changes recorded so far, and every file they touched (real paths): a background run is bound to both. */
  let generation = 0;
  const changedFiles = new Set<string>();
  const runs = backgroundRuns(opts.fs);
  /** The project's status when the run started (its first call). */
  let atStart: Promise<WorktreeState | undefined> | undefined;
  /** The status before each running command, by call id. */
  const beforeCommand = new Map<string, WorktreeState | undefined>();

  const changedPaths = async (call: GuardCall, cwd: string): Promise<ChangedFile[]> => {
    const shown: ChangedFile[] = [];
    for (const t of call.touches) {
      if (!CHANGES.has(t.as)) continue;
      const where = await resolveInCwd(opts.fs, cwd, t.path);
      const display = where.ok ? where.display : t.path;
      const abs = where.ok ? where.abs : path.resolve(cwd, t.path);
      if (display !== PLAN_FILE && !shown.some((c) => c.display === display)) shown.push({ abs, display });
    }
    return shown;
  };

  /** What git status lists differently now than in `earlier`; the plan file left out. */
  const changedSince = async (earlier: Promise<WorktreeState | undefined> | WorktreeState | undefined, cwd: string): Promise<ChangedFile[]> => {
    const [was, now] = await Promise.all([earlier, worktreeState(cwd, git)]);
    if (!was || !now) return [];
    return changedBetween(was, now)
      .filter((p) => p !== PLAN_FILE)
      .map((p) => ({ abs: path.join(now.root, p), display: p }));
  };

  /** Files the model changed (through a tool, or a command that was no check): a check's own outputs are not among them. */
  const editedInputs = new Set<string>();
  const recordChange = (changes: readonly ChangedFile[], checked: boolean) => {
    lastChange = changes.map((c) => c.display);
    checkedSinceChange = checked;
    generation++;
    for (const c of changes) {
      changedFiles.add(c.abs);
      if (!checked) editedInputs.add(c.abs);
    }
  };

  /**
   * What a call that started, read or stopped a background command means:
   * a start binds the run; the end of one the call showed checks the work
   * or not; changes seen around a read of the one live run are its own.
   * Returns the command changes it took care of.
   */
  const background = async (result: ToolResult, byCommand: ChangedFile[]): Promise<boolean> => {
    const report = result.background;
    if (!report) return false;
    if (report.state === "started") {
      await runs.start(report.job, report.checks, generation, changedFiles);
      return false;
    }
    const held = runs.hold(report.job, byCommand);
    if (report.state === "running") return held;
    const end = await runs.end(report.job, report.state === "passed", generation);
    if (!end) return held;
    if (end.held.length > 0) recordChange(end.held, end.counts);
    else if (end.counts) checkedSinceChange = true;
    return held;
  };

  return {
    name: "done_guard",

    async before(call, ctx) {
      // Both taken in full before the call runs, so they show nothing it did.
      atStart ??= worktreeState(ctx.cwd, git);
      await atStart;
      if (runsCommands(call, ctx)) beforeCommand.set(call.callId, await worktreeState(ctx.cwd, git));
      if (call.role !== "finish") return undefined;
      if (opts.requireMutation && lastChange.length === 0) {
        const sinceStart = await changedSince(atStart, ctx.cwd);
        if (sinceStart.length === 0) return doneText.noChange(call.tool);
        recordChange(sinceStart, checkedSinceChange);
      }
      if (opts.requireVerify && lastChange.length > 0 && !checkedSinceChange) return doneText.unchecked(lastChange, call.tool);
      return undefined;
    },

    async after(call, result, ctx) {
      const before = beforeCommand.get(call.callId);
      beforeCommand.delete(call.callId);
      // A failing command may still have written files.
      const byCommand = before ? await changedSince(before, ctx.cwd) : [];
      const ownedByRun = await background(result, byCommand);
      // A check that rewrote a file the model had changed checked something else than what it was given.
      const rewroteInput = byCommand.some((c) => editedInputs.has(c.abs));
      if (byCommand.length > 0 && !ownedByRun) recordChange(byCommand, result.ok && call.verifies(result) && !rewroteInput);
      if (!result.ok) {
        // A check that ran again and failed takes back what its earlier pass showed.
        if (byCommand.length === 0 && call.verifies({ ...result, ok: true })) checkedSinceChange = false;
        return result;
      }
      const changed = await changedPaths(call, ctx.cwd);
      if (changed.length > 0) recordChange(changed, false);
      else if (byCommand.length === 0 && call.verifies(result)) checkedSinceChange = true;
      return result;
    },
  };
}
