// Yuj `checkpoint(goal)`: marks the conversation before an exploration. The
// mark is the end of this turn: it becomes active once every call of the turn
// has its result, and rewind(report) later returns the model's context here.
// Nothing is saved now; the history itself records the mark (see
// core/context/shape.ts), so a resumed session knows it too.

import { z } from "zod";
import { CONVERSES, ok, type ToolHandler } from "../../core/tool-types.js";
import { activeCheckpoints } from "./rewind.js";

export const checkpointSchema = z.object({
  goal: z.string().trim().min(1, "goal must be a non-empty string"),
});

export const checkpointTool: ToolHandler<typeof checkpointSchema> = {
  id: "checkpoint",
  schema: checkpointSchema,
  effects: CONVERSES,
  role: "checkpoint",
  view: { card: "foldable" },
  async run(args, ctx) {
    const outer = ctx.conversation ? activeCheckpoints(ctx.conversation, ctx.callId).checkpoints : [];
    const nested = outer.length ? ` It is nested in the checkpoint "${outer[outer.length - 1]!.goal}": a rewind returns here first.` : "";
    return ok(
      `Checkpoint set: "${args.goal}". It becomes active once every result of this turn is in. ` +
        `When the exploration is done, call rewind(report) with a short findings report: your context returns here and keeps the report. Files are never restored.${nested}`,
    );
  },
};
