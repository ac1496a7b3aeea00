// Chord `cancel`: stops a delegated worker for good (a cancelled task is not
// resumable). Denying delegate denies cancel too.

import { z } from "zod";
import { fail, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

export const cancelSchema = z.object({
  // No minLength, as the reference's schema: a blank id is answered by the handler, in the reference's words.
  target_task_id: z.string().trim(),
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
    if (args.target_task_id === "") return fail("target_task_id is required: name the task to cancel, e.g. task-1");
    return ctx.orchestration.cancel(args.target_task_id, args.reason);
  },
};
