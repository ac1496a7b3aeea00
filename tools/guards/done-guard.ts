// The finish rule: with done_guard_enabled, `done` is refused while the
// session lacks what the config requires — a file change
// (done_require_mutation) and a check that ran after the last change
// (done_require_verify). The refusal says exactly what is still missing.
//
// A change is a successful call of a file tool (the table in mutations.ts)
// or a file change a command made: what `git status` lists differently after
// the command than before it, or at `done` than when the run started (a
// background job's writes). A command that changes files and is itself a
// check (a generator run, a formatter) counts as both. The plan file
// (.solver/plan.md) is harness state, never a change. With no change at all
// there is nothing to check, so done_require_verify alone does not hold done
// back; done_require_mutation is the knob for that.

import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { FileSystem } from "../../core/services.js";
import { gitRunner, type GitRunner } from "../../core/git.js";
import { PLAN_FILE } from "../lib/plan-file.js";
import { resolveInCwd } from "../lib/paths.js";
import { isVerification, mutationTargets } from "./mutations.js";
import { changedBetween, worktreeState, type WorktreeState } from "./worktree-changes.js";

export const doneText = {
  noChange:
    "ERROR: done_guard: no file has been changed yet — make the change the task asks for " +
    "(with the file tools, or a command that writes files) before calling done.",
  unchecked: (paths: readonly string[]) =>
    `ERROR: done_guard: nothing has checked the last change (${paths.join(", ")}) — ` +
    "run the tests or a command that exercises it, then call done.",
};

export interface DoneGuardOptions {
  fs: FileSystem;
  requireMutation: boolean;
  requireVerify: boolean;
  /** Runs git for the project's status; yuj's quiet runner by default. */
  git?: GitRunner;
}

/** Handlers that run commands: what they change is seen in git status. */
const COMMANDS = new Set(["bash", "shell", "bash_poll", "bash_kill", "job_output", "job_kill", "terminal_io", "run_tests"]);

export function createDoneGuard(opts: DoneGuardOptions): Guard {
  const git = opts.git ?? gitRunner();
  /** Paths of the last successful change; empty until the first one. */
  let lastChange: string[] = [];
  let checkedSinceChange = false;
  /** The project's status when the run started (its first call). */
  let atStart: Promise<WorktreeState | undefined> | undefined;
  /** The status before each running command, by call id. */
  const beforeCommand = new Map<string, WorktreeState | undefined>();

  const changedPaths = async (call: GuardCall, cwd: string): Promise<string[]> => {
    const targets = mutationTargets(call.handler, call.args) ?? [];
    const shown: string[] = [];
    for (const t of targets) {
      const where = await resolveInCwd(opts.fs, cwd, t.path);
      const display = where.ok ? where.display : t.path;
      if (display !== PLAN_FILE && !shown.includes(display)) shown.push(display);
    }
    return shown;
  };

  /** What git status lists differently now than in `earlier`; the plan file left out. */
  const changedSince = async (earlier: Promise<WorktreeState | undefined> | WorktreeState | undefined, cwd: string): Promise<string[]> => {
    const [was, now] = await Promise.all([earlier, worktreeState(cwd, git)]);
    return was && now ? changedBetween(was, now).filter((p) => p !== PLAN_FILE) : [];
  };

  const recordChange = (paths: string[], checked: boolean) => {
    lastChange = paths;
    checkedSinceChange = checked;
  };

  return {
    name: "done_guard",

    async before(call, ctx) {
      // Both taken in full before the call runs, so they show nothing it did.
      atStart ??= worktreeState(ctx.cwd, git);
      await atStart;
      if (COMMANDS.has(call.handler)) beforeCommand.set(call.callId, await worktreeState(ctx.cwd, git));
      if (call.handler !== "done") return undefined;
      if (opts.requireMutation && lastChange.length === 0) {
        const sinceStart = await changedSince(atStart, ctx.cwd);
        if (sinceStart.length === 0) return doneText.noChange;
        recordChange(sinceStart, checkedSinceChange);
      }
      if (opts.requireVerify && lastChange.length > 0 && !checkedSinceChange) return doneText.unchecked(lastChange);
      return undefined;
    },

    async after(call, result, ctx) {
      const before = beforeCommand.get(call.callId);
      beforeCommand.delete(call.callId);
      // A failing command may still have written files.
      const byCommand = before ? await changedSince(before, ctx.cwd) : [];
      if (byCommand.length > 0) recordChange(byCommand, result.ok && isVerification(call, result));
      if (!result.ok) return result;
      const changed = await changedPaths(call, ctx.cwd);
      if (changed.length > 0) recordChange(changed, false);
      else if (byCommand.length === 0 && isVerification(call, result)) checkedSinceChange = true;
      return result;
    },
  };
}
