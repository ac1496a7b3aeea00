// Yuj `ask_user`: one exact clarification question to the operator. The
// answer is information for the model, never an authorization: it cannot
// approve a call, change a rule or bypass the sandbox.
//
// In the TUI the question is shown inline and the answer comes back at once.
// Headless, the question is saved and the run ends with input_required; the
// answer (`yuj answer`) becomes this call's result when the session resumes.
// One question per session is enforced by the session (app/question-limit.ts).

import { z } from "zod";
import { CONVERSES, fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

// Strict even when general schema validation is off: only `question`.
export const askUserSchema = z.strictObject({
  question: z.string().trim().min(1, "question must be a non-empty string"),
});

/** The result the model gets: the operator's answer, as said. */
export function answerText(answer: string): string {
  return `The operator answered: ${answer}`;
}

export const askUserTool: ToolHandler<typeof askUserSchema> = {
  id: "ask_user",
  schema: askUserSchema,
  effects: CONVERSES,
  role: "ask",
  view: {
    card: "expanded",
    preview: (args) => {
      const question = str(args, "question");
      return question === undefined ? undefined : { kind: "questions", items: [{ question }] };
    },
  },
  async run(args, ctx) {
    if (!ctx.ask) {
      if (ctx.pauseForAnswer) return { ok: true, modelText: "", question: args.question };
      return fail("ERROR: ask_user: no operator can answer in this session; decide from what the repository shows");
    }
    let answer: string;
    try {
      answer = await ctx.ask({ callId: ctx.callId, question: args.question });
    } catch {
      return fail("ERROR: ask_user: the question was cancelled before the operator answered");
    }
    return ok(answerText(answer), { kind: "questions", items: [{ question: args.question, answer }] });
  },
};
