// The finish rule (spec "Finish rule", digest 1.22): with done_guard_enabled,
// `done` is refused while the session lacks what the config requires — a file
// change (done_require_mutation) and a check that ran after the last change
// (done_require_verify). The refusal says exactly what is still missing.
//
// What counts as a change and as a check is the table in mutations.ts. The
// plan file (.solver/plan.md) is harness state, never a change. With no
// change at all there is nothing to check, so done_require_verify alone does
// not hold done back; done_require_mutation is the knob for that.

import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { FileSystem } from "../../core/services.js";
import { PLAN_FILE } from "../lib/plan-file.js";
import { resolveInCwd } from "../lib/paths.js";
import { isVerification, mutationTargets } from "./mutations.js";

export const doneText = {
  noChange:
    "ERROR: done_guard: no file has been changed yet — make the change the task asks for " +
    "(with the file-editing tools; shell commands do not count) before calling done.",
  unchecked: (paths: readonly string[]) =>
    `ERROR: done_guard: nothing has checked the last change (${paths.join(", ")}) — ` +
    "run the tests or a command that exercises it, then call done.",
};

export interface DoneGuardOptions {
  fs: FileSystem;
  requireMutation: boolean;
  requireVerify: boolean;
}

export function createDoneGuard(opts: DoneGuardOptions): Guard {
  /** Paths of the last successful change; empty until the first one. */
  let lastChange: string[] = [];
  let checkedSinceChange = false;

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

  return {
    name: "done_guard",

    before(call) {
      if (call.handler !== "done") return undefined;
      if (opts.requireMutation && lastChange.length === 0) return doneText.noChange;
      if (opts.requireVerify && lastChange.length > 0 && !checkedSinceChange) return doneText.unchecked(lastChange);
      return undefined;
    },

    async after(call, result, ctx) {
      if (!result.ok) return result;
      const changed = await changedPaths(call, ctx.cwd);
      if (changed.length > 0) {
        lastChange = changed;
        checkedSinceChange = false;
      } else if (isVerification(call, result)) {
        checkedSinceChange = true;
      }
      return result;
    },
  };
}
