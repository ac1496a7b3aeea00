// Yuj `ask_user`: one exact clarification question to the operator. The
// answer is information for the model, never an authorization: it cannot
// approve a call, change a rule or bypass the sandbox.

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../core/tool-types.js";

// Strict even when general schema validation is off: only `question`.
export const askUserSchema = z.strictObject({
  question: z.string().trim().min(1, "question must be a non-empty string"),
});

export const askUserTool: ToolHandler<typeof askUserSchema> = {
  id: "ask_user",
  schema: askUserSchema,
  readOnly: false,
  async run(args, ctx) {
    if (!ctx.ask) return fail("ERROR: ask_user: no operator can answer in this session; decide from what the repository shows");
    let answer: string;
    try {
      answer = await ctx.ask({ callId: ctx.callId, question: args.question });
    } catch {
      return fail("ERROR: ask_user: the question was cancelled before the operator answered");
    }
    return ok(`The operator answered: ${answer}`);
  },
};
