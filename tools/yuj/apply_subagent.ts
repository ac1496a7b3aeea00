// Yuj `apply_subagent`: applies an isolated child's saved patch to the
// parent's files, as a change of its own: the permission rules meet every
// path the patch adds, changes or deletes, as they would a patch the model
// wrote. Refused when a file it touches changed since the child started;
// applied all or nothing.

import { join } from "node:path";
import { z } from "zod";
import { applyChanges } from "../../core/agents/apply-changes.js";
import { loadChanges, type ChangedFile } from "../../core/agents/changes.js";
import { patchTarget } from "../../core/permissions/match-target.js";
import { fail, MUTATES, ok, type CallFacts, type ToolHandler, type Touch } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

export const applySubagentSchema = z.object({
  task_id: z.string().trim().min(1, "task_id must name a task, e.g. task-1"),
});

const kindOf = (f: ChangedFile): Touch["as"] => (f.status === "A" ? "creates" : f.status === "D" ? "deletes" : "updates");

/** The files the saved patch touches, by their full paths; none when there is no patch to find. */
function patchTouches(taskId: string, facts: CallFacts): Touch[] {
  if (!facts.sessionDir) return [];
  const found = loadChanges(facts.sessionDir, taskId);
  if ("error" in found) return [];
  return found.set.files.map((f) => ({ path: join(found.set.repo, f.path), as: kindOf(f) }));
}

export const applySubagentTool: ToolHandler<typeof applySubagentSchema> = {
  id: "apply_subagent",
  schema: applySubagentSchema,
  effects: MUTATES,
  touchKinds: new Set(["creates", "updates", "deletes"]),
  touches: (args, facts) => patchTouches(args.task_id, facts),
  matchValue: (args, facts) => patchTarget(patchTouches(args.task_id, facts)),
  permissions: { family: "edit" },
  view: {
    card: "expanded",
    summary: (args) => str(args, "task_id") ?? "",
    describe: (args, facts) => {
      const touched = patchTouches(str(args, "task_id") ?? "", facts);
      return { summary: `apply ${str(args, "task_id")}'s patch (${touched.length} files)`, detail: touched.map((t) => `${t.as} ${t.path}`).join("\n") };
    },
  },
  async run(args, ctx) {
    const found = loadChanges(ctx.sessionDir, args.task_id);
    if ("error" in found) return fail(`ERROR: apply_subagent refused: ${found.error}`);
    const result = await applyChanges(found.set, found.dir);
    return result.ok ? ok(result.text) : fail(`ERROR: ${result.text}`);
  },
};
