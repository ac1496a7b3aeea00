// Chord `notify`, in three forms: an owner update (no target_task_id;
// progress or notice, with subtype, correlation_id and a payload up to
// 32 KiB), a plain targeted message to a worker (which wakes or resumes it),
// and a reply to a worker's request by its correlation_id.

import { z } from "zod";
import { CONVERSES, fail, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

export const notifySchema = z.object({
  message: z.string().trim().min(1, "message must be non-empty"),
  target_task_id: z.string().trim().min(1).optional(),
  kind: z.string().optional(),
  message_type: z.enum(["progress", "notice", "response"]).optional(),
  subtype: z.string().optional(),
  correlation_id: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});

export const notifyTool: ToolHandler<typeof notifySchema> = {
  id: "notify",
  schema: notifySchema,
  effects: CONVERSES,
  view: { card: "expanded", summary: (args) => str(args, "target_task_id") ?? "owner" },
  async run(args, ctx) {
    if (!ctx.orchestration) return fail("notify is not available in this session");
    return ctx.orchestration.notify({
      message: args.message,
      ...(args.target_task_id !== undefined ? { targetTaskId: args.target_task_id } : {}),
      ...(args.kind !== undefined ? { kind: args.kind } : {}),
      ...(args.message_type !== undefined ? { messageType: args.message_type } : {}),
      ...(args.subtype !== undefined ? { subtype: args.subtype } : {}),
      ...(args.correlation_id !== undefined ? { correlationId: args.correlation_id } : {}),
      ...(args.payload !== undefined ? { payload: args.payload } : {}),
    });
  },
};
