// Chord `delegate`: starts a worker on a sub-task and returns its startup
// handle at once (task_id, agent_id, status, message, and a scope conflict
// when the declared scope overlaps a live task's). The declared scope is
// coordination metadata: it never limits the worker's file tools. The
// permission rules match calls on agent_type.

import { z } from "zod";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

// Entries are trimmed, blank ones dropped and repeats removed by the runtime, as the reference does.
const paths = z.array(z.string()).default([]);

export const delegateSchema = z.object({
  description: z.string().trim().min(1, "description must say what the worker is to do"),
  // An empty agent_type reaches the runtime, which answers with the roles there are.
  agent_type: z.string().trim(),
  expected_write_scope: z.object({ files: paths, path_prefix: paths, modules: paths, read_only: z.boolean().optional() }),
  result_schema: z.record(z.string(), z.unknown()).optional(),
  plan_task_ref: z.string().optional(),
  semantic_task_key: z.string().optional(),
});

export const delegateTool: ToolHandler<typeof delegateSchema> = {
  id: "delegate",
  schema: delegateSchema,
  effects: new Set<ToolEffect>(["orchestrate"]),
  role: "delegation",
  matchValue: (args) => textTarget(args.agent_type),
  view: { card: "expanded", summary: (args) => `${str(args, "agent_type") ?? ""}: ${str(args, "description") ?? ""}` },
  async run(args, ctx) {
    if (!ctx.orchestration) return fail("delegate is not available in this session");
    const { files, path_prefix, modules, read_only } = args.expected_write_scope;
    return ctx.orchestration.delegate({
      description: args.description,
      agentType: args.agent_type,
      scope: { files, path_prefix, modules },
      ...(read_only !== undefined ? { readOnly: read_only } : {}),
      ...(args.result_schema !== undefined ? { resultSchema: args.result_schema } : {}),
      ...(args.plan_task_ref ? { planTaskRef: args.plan_task_ref } : {}),
      ...(args.semantic_task_key ? { semanticTaskKey: args.semantic_task_key } : {}),
      callId: ctx.callId,
    });
  },
};
