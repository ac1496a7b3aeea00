// The required planning phase:
// with [loop].plan_mode = "required" the model first looks around and writes
// .solver/plan.md; only a successful call of the plan-exit tool unlocks the
// rest. Until then every other call is refused before it runs (and before
// the permission gate), and the refused tools are hidden from the request.
//
// Allowed in the phase, by what the call's tool says of it:
//   * calls that only inspect, converse or stop the session's own commands
//     (reads and searches, the todo list, a question, thinking, reading and
//     stopping jobs — only inspection can have started them) — but not the
//     calls that steer the run: finishing, a checkpoint, a rewind;
//   * a shell command that only inspects (its tool narrows the call: `ls`
//     inspects, `rm` executes);
//   * the plan-exit tool;
//   * a whole-file write of the plan file and nothing else.
// Everything else — edits, commands that run things, terminals, delegation,
// finishing — is refused, so a new tool is refused unless it says it only
// looks.
//
// In code mode the phase works through the native tools (the toolset's
// planPhaseOnly: read, the searches, bash, the plan write) instead of the
// cell tools; once the plan is accepted they are hidden and refused, and the
// cell tools take over.
//
// [loop].plan_max_turns: the phase's model requests are counted (hiddenTools
// is asked once per request, see core/loop.ts visibleSpecs). Once that many
// requests went by without an accepted plan, only the plan write, the plan
// exit and a question remain, and everything else is refused with a message
// telling the model to write the plan now. If PLAN_LAST_CHANCE more requests
// go by still without an accepted plan, the run ends with that reason.

import type { Guard, GuardCall, GuardContext } from "../../core/guards/types.js";
import type { FileSystem } from "../../core/services.js";
import type { Emit } from "../../core/events.js";
import type { ToolEffect, ToolHandler, ToolRole } from "../../core/tool-types.js";
import { PLAN_FILE } from "../lib/plan-file.js";
import { resolveInCwd } from "../lib/paths.js";

const LOOKING: ReadonlySet<ToolEffect> = new Set(["inspect", "converse", "stop"]);
/** Calls that steer the run itself (finishing, the conversation checkpoint, loading tools) wait for the plan, whatever their effects. */
const STEERING: ReadonlySet<ToolRole> = new Set(["finish", "checkpoint", "rewind", "load"]);

const only = (effects: ReadonlySet<ToolEffect>) => [...effects].every((e) => LOOKING.has(e));
const any = (effects: ReadonlySet<ToolEffect>) => [...effects].some((e) => LOOKING.has(e));

/** Whether this call only looks (its tool's effects, narrowed by the call). */
const looks = (call: GuardCall): boolean => only(call.effects) && (call.role === undefined || !STEERING.has(call.role));

/** Whether some call of this tool could run in the phase: the tool stays in the request. */
function mayRun(handler: ToolHandler, lastCall: boolean): boolean {
  if (handler.role === "plan_exit" || handler.role === "ask" || handler.touchKinds?.has("writes")) return true;
  return !lastCall && any(handler.effects) && (handler.role === undefined || !STEERING.has(handler.role));
}

/** Requests past [loop].plan_max_turns left to write the plan before the run ends. */
const PLAN_LAST_CHANCE = 2;

const NEXT_STEP = `write your plan to ${PLAN_FILE}, then call exit_plan_mode.`;

export const planText = {
  tool: (tool: string) => `ERROR: plan_mode: ${tool} is not available until the plan is accepted — ${NEXT_STEP}`,
  shell: (tool: string) =>
    `ERROR: plan_mode: ${tool} may only run read-only commands (cat, head, tail, ls, find, grep, rg, wc, ` +
    `git status/log/diff/show) until the plan is accepted — ${NEXT_STEP}`,
  write: (tool: string) =>
    `ERROR: plan_mode: ${tool} may only write ${PLAN_FILE} until the plan is accepted — ${NEXT_STEP}`,
  stop: (max: number) =>
    `stopped: the planning phase used its ${max} turns ([loop].plan_max_turns) and ${PLAN_LAST_CHANCE} more without an accepted plan`,
  planOnly: (tool: string) =>
    `ERROR: plan_mode: ${tool} was offered only while planning; the plan is accepted, so work through exec_cell now.`,
  already: (tool: string) =>
    `ERROR: plan_mode: ${tool}: the plan was already accepted and the planning phase is over; the implementation tools are unlocked.`,
  sibling: (tool: string) =>
    `ERROR: plan_mode: ${tool} was sent in the same response as exit_plan_mode, before the plan was accepted, ` +
    "so it did not run. The implementation tools are unlocked now: send the call again.",
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
  /** The session's events: entering and leaving the phase, and each refused call, leave a notice in the trace. */
  emit?: Emit;
}

export interface PlanModeGuard extends Guard {
  /** True once exit_plan_mode has succeeded. */
  readonly accepted: boolean;
}

export function createPlanModeGuard(opts: PlanModeOptions): PlanModeGuard {
  let accepted = opts.accepted ?? false;
  // Set when the plan is accepted, cleared at the next model request: the
  // rest of that response was written before the model saw the acceptance,
  // so it is still held to the phase's rules.
  let acceptedThisResponse = false;
  let requests = 0;
  const notice = (text: string) => opts.emit?.({ type: "notice", level: "info", text: `plan mode: ${text}` });
  const outOfTurns = () => requests > opts.maxTurns;

  const isPlanFile = async (cwd: string, p: unknown): Promise<boolean> => {
    if (typeof p !== "string") return false;
    // Resolved, so `./.solver/plan.md` is the plan and a symlink to src/ is not.
    const where = await resolveInCwd(opts.fs, cwd, p, { forbidNewline: true });
    return where.ok && where.display === PLAN_FILE;
  };

  /** A call that writes whole files: allowed when it writes the plan and nothing else. */
  const writesOnlyThePlan = async (call: GuardCall, cwd: string): Promise<boolean> => {
    for (const t of call.touches) if (t.as !== "writes" || !(await isPlanFile(cwd, t.path))) return false;
    return call.touches.length > 0;
  };

  const refusal = async (call: GuardCall, ctx: GuardContext): Promise<string | undefined> => {
    const handler = ctx.handlers.get(call.tool);
    if (handler?.touchKinds?.has("writes")) return (await writesOnlyThePlan(call, ctx.cwd)) ? undefined : planText.write(call.tool);
    if (call.role === "plan_exit" || call.role === "ask") return undefined;
    if (outOfTurns()) return planText.turns(opts.maxTurns);
    if (looks(call)) return undefined;
    // A tool that may only look, asked to do more (a shell command that changes things).
    return handler && any(handler.effects) && !STEERING.has(handler.role!) ? planText.shell(call.tool) : planText.tool(call.tool);
  };

  return {
    name: "plan_mode",
    get accepted() {
      return accepted;
    },

    stopRun() {
      return !accepted && requests >= opts.maxTurns + PLAN_LAST_CHANCE ? planText.stop(opts.maxTurns) : undefined;
    },

    async before(call, ctx) {
      // Hidden once the plan is accepted; a model that calls it anyway is told the phase is over.
      if (accepted && call.role === "plan_exit") return planText.already(call.tool);
      if (acceptedThisResponse) return (await refusal(call, ctx)) ? planText.sibling(call.tool) : undefined;
      if (accepted) return ctx.planPhaseOnly?.has(call.tool) ? planText.planOnly(call.tool) : undefined;
      const refused = await refusal(call, ctx);
      if (refused) notice(`refused ${call.tool}: the plan is not accepted yet`);
      return refused;
    },

    after(call, result) {
      if (call.role === "plan_exit" && result.ok && !accepted) {
        accepted = true;
        acceptedThisResponse = true;
        notice("the plan is accepted; the planning phase is over");
      }
      return result;
    },

    hiddenTools(ctx) {
      acceptedThisResponse = false;
      const tools = [...ctx.handlers];
      const native = ctx.planPhaseOnly;
      if (accepted) return new Set(tools.filter(([name, h]) => h.role === "plan_exit" || native?.has(name)).map(([name]) => name));
      if (requests++ === 0) notice(`the planning phase begins: write ${PLAN_FILE}, then call exit_plan_mode; until then only looking is allowed`);
      // In code mode the cell tools wait for the plan: the phase looks around with the native ones.
      const cellTool = ([name, h]: [string, ToolHandler]) => native !== undefined && !native.has(name) && h.role !== "plan_exit" && h.role !== "ask";
      return new Set(tools.filter((t) => cellTool(t) || !mayRun(t[1], outOfTurns())).map(([name]) => name));
    },
  };
}
