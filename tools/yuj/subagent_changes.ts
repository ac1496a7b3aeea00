// Yuj `subagent_changes`: one page of an isolated child's saved patch, by
// lines (offset 0-based, limit lines), so a large patch is reviewed in
// parts. A page also stops at a byte budget; it says where the next begins.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { loadChanges } from "../../core/agents/changes.js";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, INSPECTS, ok, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

const DEFAULT_LIMIT = 200;
const MAX_LIMIT = 2000;
const PAGE_BYTES = 48 * 1024;

export const subagentChangesSchema = z.object({
  task_id: z.string().trim().min(1, "task_id must name a task, e.g. task-1"),
  offset: z.number().int("offset must be a whole number").min(0, "offset must be >= 0").optional(),
  limit: z.number().int("limit must be a whole number").min(1, "limit must be >= 1").max(MAX_LIMIT, `limit must be at most ${MAX_LIMIT}`).optional(),
});

export const subagentChangesTool: ToolHandler<typeof subagentChangesSchema> = {
  id: "subagent_changes",
  schema: subagentChangesSchema,
  effects: INSPECTS,
  matchValue: (args) => textTarget(args.task_id),
  view: { card: "foldable", summary: (args) => str(args, "task_id") ?? "" },
  async run(args, ctx) {
    const found = loadChanges(ctx.sessionDir, args.task_id);
    if ("error" in found) return fail(`ERROR: ${found.error}`);
    const { set, dir } = found;
    if (!set.patch) {
      return fail(set.tooLarge ? `ERROR: task ${set.task_id}'s patch (${set.bytes} bytes) was too large to keep` : `ERROR: task ${set.task_id} changed no files; it has no patch`);
    }
    const lines = readFileSync(join(dir, set.patch), "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    const offset = args.offset ?? 0;
    if (offset >= lines.length) return fail(`ERROR: offset ${offset} is past the patch's end: it has ${lines.length} lines (offsets 0-${lines.length - 1})`);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const page: string[] = [];
    let bytes = 0;
    for (let i = offset; i < Math.min(lines.length, offset + limit); i++) {
      bytes += Buffer.byteLength(lines[i]!) + 1;
      if (page.length > 0 && bytes > PAGE_BYTES) break;
      page.push(lines[i]!);
    }
    const end = offset + page.length;
    const next = end < lines.length ? `; the next page starts at offset ${end}` : "; this is the end";
    const head = `task ${set.task_id}: patch lines ${offset}-${end - 1} of ${lines.length}${next}${set.applied ? " (already applied)" : ""}`;
    return ok(`${head}\n${page.join("\n")}`);
  },
};
