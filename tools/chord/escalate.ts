// Chord `escalate` (worker side): needs_repair asks the owner for help and
// parks the worker until the reply (the task keeps running; at most two may
// stay unanswered); blocked reports a dead end and fails the task.

import { z } from "zod";
import { CONVERSES, fail, type ToolHandler } from "../../core/tool-types.js";

// kind first: the reference's schema requires exactly [kind, reason], in that order.
export const escalateSchema = z.object({
  kind: z.enum(["needs_repair", "blocked"]),
  reason: z.string().trim().min(1, "reason must say what is needed or why the task cannot go on"),
});

export const escalateTool: ToolHandler<typeof escalateSchema> = {
  id: "escalate",
  schema: escalateSchema,
  effects: CONVERSES,
  view: { card: "control", controlField: "reason" },
  async run(args, ctx) {
    if (!ctx.orchestration) return fail("escalate is not available in this session: it is for a delegated worker");
    return ctx.orchestration.escalate(args.reason, args.kind);
  },
};
