// `done`: the model's way to end the task. The loop sees `finish` and stops
// after this call; the literal `done` is what the reference returns.

import { z } from "zod";
import { CONVERSES, ok, type ToolHandler } from "../../core/tool-types.js";

export const doneSchema = z.object({
  message: z.string().optional(),
});

export const doneTool: ToolHandler<typeof doneSchema> = {
  id: "done",
  schema: doneSchema,
  effects: CONVERSES,
  role: "finish",
  view: { card: "control", controlField: "message" },
  // Some models send the closing message alone, as bare text or one JSON string.
  argForms: { text: "message" },
  async run(args) {
    const result = ok("done");
    result.finish = args.message === undefined ? {} : { message: args.message };
    return result;
  },
};
