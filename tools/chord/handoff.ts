// Chord `handoff`: the main agent's planner gives its plan file to the
// builder; the main role switches and the builder carries the plan out in
// the same run. YOLO never waves it through (it steers the session), and
// ask only makes it available, as allow does; deny hides it.

import { z } from "zod";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

export const handoffSchema = z.object({
  plan_path: z.string().trim().min(1, "plan_path must name the plan file, e.g. plans/plan-001.md"),
});

export const handoffTool: ToolHandler<typeof handoffSchema> = {
  id: "handoff",
  schema: handoffSchema,
  effects: new Set<ToolEffect>(["orchestrate"]),
  permissions: { askMakesAvailable: true },
  matchValue: (args) => textTarget(args.plan_path),
  view: { card: "expanded", summary: (args) => str(args, "plan_path") ?? "" },
  async run(args, ctx) {
    if (!ctx.mainRoles) return fail("handoff is for the main agent of a Chord session; a worker reports with complete instead");
    return ctx.mainRoles.handoff(args.plan_path, ctx.cwd);
  },
};
