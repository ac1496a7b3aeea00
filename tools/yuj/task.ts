// Yuj `task`: runs a named agent as a child session in its own context and
// returns the child's final text. The child's definition (its tools, prompt,
// turn limit, read-only status) comes from the agent's file; the runner the
// session hands the tool does the rest.

import { z } from "zod";
import { fail, type ToolHandler } from "../../core/tool-types.js";

export const taskSchema = z.object({
  agent: z.string().trim().min(1, "agent must name an agent, e.g. explorer"),
  prompt: z.string().trim().min(1, "prompt must be the child's job, non-empty"),
});

export const taskTool: ToolHandler<typeof taskSchema> = {
  id: "task",
  schema: taskSchema,
  // A child may write (read_only = false), and children run one at a time.
  readOnly: false,
  async run(args, ctx) {
    if (!ctx.subagents) return fail("task is not available in this session: child sessions cannot start here");
    return ctx.subagents.run(args.agent, args.prompt, ctx.signal);
  },
};
