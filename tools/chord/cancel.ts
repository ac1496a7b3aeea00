// Chord `cancel`: stops a delegated worker for good (a cancelled task is not
// resumable). Denying delegate denies cancel too.

import { z } from "zod";
import { fail, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

export const cancelSchema = z.object({
  target_task_id: z.string().trim().min(1, "target_task_id must name a task, e.g. task-1"),
  reason: z.string().optional(),
});

export const cancelTool: ToolHandler<typeof cancelSchema> = {
  id: "cancel",
  schema: cancelSchema,
  effects: new Set<ToolEffect>(["orchestrate", "stop"]),
  role: "cancellation",
  view: { card: "foldable", summary: (args) => str(args, "target_task_id") ?? "" },
  async run(args, ctx) {
    if (!ctx.orchestration) return fail("cancel is not available in this session");
    return ctx.orchestration.cancel(args.target_task_id, args.reason);
  },
};
