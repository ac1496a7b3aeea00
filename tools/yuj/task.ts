// Yuj `task`: runs a named agent as a child session in its own context and
// returns the child's final text. The child's definition (its tools, prompt,
// turn limit, read-only status) comes from the agent's file; the runner the
// session hands the tool does the rest.

import { str } from "../lib/view.js";
import { z } from "zod";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";

export const taskSchema = z.object({
  agent: z.string().trim().min(1, "agent must name an agent, e.g. explorer"),
  prompt: z.string().trim().min(1, "prompt must be the child's job, non-empty"),
});

export const taskTool: ToolHandler<typeof taskSchema> = {
  id: "task",
  schema: taskSchema,
  // A child may write (read_only = false), and children run one at a time.
  effects: new Set<ToolEffect>(["mutate"]),
  matchValue: (args) => textTarget(args.agent),
  view: { card: "expanded", summary: (args) => str(args, "agent") ?? "" },
  async run(args, ctx) {
    if (!ctx.subagents) return fail("task is not available in this session: child sessions cannot start here");
    return ctx.subagents.run(args.agent, args.prompt, ctx.signal);
  },
};
