// The required planning phase (spec "Required planning phase", digest 1.17):
// with [loop].plan_mode = "required" the model first looks around and writes
// .solver/plan.md; only a successful exit_plan_mode unlocks the rest. Until
// then every other call is refused before it runs (and before the permission
// gate), and the refused tools are hidden from the request.
//
// Allowed in the phase (by handler id):
//   inspection  read, glob, grep, list_definitions, lsp, structural_search
//   harness     think, write_todos, ask_user, exit_plan_mode
//   jobs        bash_poll, bash_kill, job_output, job_list, job_kill (only
//               read-only commands can have started them)
//   bash/shell  only commands that pass isInspectionCommand (mutations.ts)
//   write       only to .solver/plan.md
// Everything else — edit and the other change tools, run_tests, terminals,
// task and subagents, exec_cell and code mode, load_tools, checkpoint/rewind,
// done — is refused: the list is an allowlist, so a new tool starts refused.
//
// [loop].plan_max_turns: the phase's model requests are counted (hiddenTools
// is asked once per request, see core/loop.ts visibleSpecs). Once that many
// requests went by without an accepted plan, only write to the plan file,
// exit_plan_mode and ask_user remain, and everything else is refused with a
// message telling the model to write the plan now.

import type { Guard, GuardCall, GuardContext } from "../../core/guards/types.js";
import type { FileSystem } from "../../core/services.js";
import { PLAN_FILE } from "../lib/plan-file.js";
import { resolveInCwd } from "../lib/paths.js";
import { isInspectionCommand, shellCall } from "./mutations.js";

/** Tools allowed whatever their arguments while the phase lasts. */
export const PLAN_PHASE_TOOLS: ReadonlySet<string> = new Set([
  "read", "glob", "grep", "list_definitions", "lsp", "structural_search",
  "think", "write_todos", "ask_user", "exit_plan_mode",
  "bash_poll", "bash_kill", "job_output", "job_list", "job_kill",
]);

/** Tools allowed with some arguments (checked per call), so they stay visible. */
const PARTLY_ALLOWED: ReadonlySet<string> = new Set(["bash", "shell", "write"]);

/** What is left once plan_max_turns is used up. */
const LAST_CALL_TOOLS: ReadonlySet<string> = new Set(["write", "exit_plan_mode", "ask_user"]);

const NEXT_STEP = `write your plan to ${PLAN_FILE}, then call exit_plan_mode.`;

export const planText = {
  tool: (tool: string) => `ERROR: plan_mode: ${tool} is not available until the plan is accepted — ${NEXT_STEP}`,
  shell: (tool: string) =>
    `ERROR: plan_mode: ${tool} may only run read-only commands (cat, head, tail, ls, find, grep, rg, wc, ` +
    `git status/log/diff/show) until the plan is accepted — ${NEXT_STEP}`,
  write: (tool: string) =>
    `ERROR: plan_mode: ${tool} may only write ${PLAN_FILE} until the plan is accepted — ${NEXT_STEP}`,
  turns: (max: number) =>
    `ERROR: plan_mode: the planning phase has used its ${max} turns ([loop].plan_max_turns) — ` +
    `write your plan to ${PLAN_FILE} now, then call exit_plan_mode.`,
};

export interface PlanModeOptions {
  fs: FileSystem;
  /** [loop].plan_max_turns. */
  maxTurns: number;
  /** A resumed session whose plan was already accepted. */
  accepted?: boolean;
}

export interface PlanModeGuard extends Guard {
  /** True once exit_plan_mode has succeeded. */
  readonly accepted: boolean;
}

export function createPlanModeGuard(opts: PlanModeOptions): PlanModeGuard {
  let accepted = opts.accepted ?? false;
  let requests = 0;
  const outOfTurns = () => requests > opts.maxTurns;

  const isPlanFile = async (cwd: string, p: unknown): Promise<boolean> => {
    if (typeof p !== "string") return false;
    // Resolved, so `./.solver/plan.md` is the plan and a symlink to src/ is not.
    const where = await resolveInCwd(opts.fs, cwd, p, { forbidNewline: true });
    return where.ok && where.display === PLAN_FILE;
  };

  const refusal = async (call: GuardCall, ctx: GuardContext): Promise<string | undefined> => {
    if (call.handler === "write") return (await isPlanFile(ctx.cwd, call.args.path)) ? undefined : planText.write(call.tool);
    if (outOfTurns()) return LAST_CALL_TOOLS.has(call.handler) ? undefined : planText.turns(opts.maxTurns);
    const shell = shellCall(call.handler, call.args);
    if (shell) return isInspectionCommand(shell.command) ? undefined : planText.shell(call.tool);
    return PLAN_PHASE_TOOLS.has(call.handler) ? undefined : planText.tool(call.tool);
  };

  return {
    name: "plan_mode",
    get accepted() {
      return accepted;
    },

    before(call, ctx) {
      return accepted ? undefined : refusal(call, ctx);
    },

    after(call, result) {
      if (call.handler === "exit_plan_mode" && result.ok) accepted = true;
      return result;
    },

    // Names here are exposed names; the shipped profiles expose each of these
    // tools under its handler id.
    hiddenTools(ctx) {
      if (accepted) return new Set(ctx.activeTools.has("exit_plan_mode") ? ["exit_plan_mode"] : []);
      requests++;
      const visible = (name: string) =>
        outOfTurns() ? LAST_CALL_TOOLS.has(name) : PLAN_PHASE_TOOLS.has(name) || PARTLY_ALLOWED.has(name);
      return new Set([...ctx.activeTools].filter((name) => !visible(name)));
    },
  };
}
