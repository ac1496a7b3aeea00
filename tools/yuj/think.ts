// Yuj `think`: a visible, short-lived scratchpad. It runs nothing and touches
// no file. The model gets an empty success envelope; the thought shows in the
// view. core/context/shape.ts leaves the call and its result out of requests
// after [tools].think_keep_turns turns, while the trace keeps the raw rows.

import { z } from "zod";
import { CONVERSES, ok, type ToolHandler } from "../../core/tool-types.js";

export const thinkSchema = z.object({
  thought: z.string().trim().min(1, "thought must be a non-empty string"),
});

/**
 * The unified result envelope with nothing inside, status ok, exactly as the
 * reference's tests pin it (no line breaks around an empty body). Sent as it
 * is, whether or not other results are enveloped; an empty text would also be
 * refused as a tool result by some providers.
 */
export const THINK_RESULT = '<tool_result tool_name="think" status="ok" v="1"></tool_result>';

export const thinkTool: ToolHandler<typeof thinkSchema> = {
  id: "think",
  schema: thinkSchema,
  effects: CONVERSES,
  role: "think",
  view: { card: "foldable" },
  // Some models send the thought alone, as bare text or one JSON string.
  argForms: { text: "thought" },
  async run(args) {
    return ok(THINK_RESULT, { kind: "text", text: args.thought });
  },
};
