// `exit_plan_mode`: the model's way out of the required planning phase
// (spec "Required planning phase"). It takes no input and only checks that a
// plan exists; the plan-mode guard sees its success and unlocks the other
// tools, so the handler itself holds no state.

import { z } from "zod";
import { CONVERSES, fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { resolveInCwd } from "../lib/paths.js";
import { PLAN_FILE } from "../lib/plan-file.js";


export const exitPlanModeSchema = z.object({});

export const exitPlanModeTool: ToolHandler<typeof exitPlanModeSchema> = {
  id: "exit_plan_mode",
  schema: exitPlanModeSchema,
  // Changes no file; the phase change happens in the guard, after the call.
  effects: CONVERSES,
  role: "plan_exit",
  view: { card: "foldable" },
  async run(_args, ctx) {
    const { fs } = ctx.services;
    const where = await resolveInCwd(fs, ctx.cwd, PLAN_FILE);
    if (!where.ok) return fail(`ERROR: exit_plan_mode: cannot use ${PLAN_FILE}: ${where.error.replace(/^ERROR: /, "")}`);
    let text: string;
    try {
      text = new TextDecoder().decode(await fs.readFile(where.abs));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        return fail(`ERROR: exit_plan_mode: cannot read ${PLAN_FILE}: ${(err as Error).message}`);
      }
      return fail(
        `ERROR: exit_plan_mode: ${PLAN_FILE} does not exist — write your plan to ${PLAN_FILE} with write, then call exit_plan_mode again.`,
      );
    }
    if (text.trim() === "") {
      return fail(
        `ERROR: exit_plan_mode: ${PLAN_FILE} is empty — write your plan into it with write, then call exit_plan_mode again.`,
      );
    }
    const lines = text.trimEnd().split("\n").length;
    return ok(
      `OK: plan accepted (${PLAN_FILE}, ${lines} line${lines === 1 ? "" : "s"}). ` +
        "Implementation tools are unlocked: edit files, run commands and tests, and call done when the task is finished.",
    );
  },
};
