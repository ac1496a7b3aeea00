// `apply_patch` (Yuj): a Codex V4A patch, all or nothing. Every op and hunk
// is checked first — an Add target must not exist, an Update or Delete target
// must, every hunk must locate once — and only then are the files written,
// each atomically. If a write fails, the files already written are restored.
// `*** Move to:` renames the updated file (replacing a file already there).
// Files keep their BOM and every line's ending.
//
// The engine (tools/lib/patch/plan.ts) is shared with `udiff` and Chord's
// `apply_patch`.

import { z } from "zod";
import { patchTarget } from "../../core/permissions/match-target.js";
import { MUTATES, type ToolHandler } from "../../core/tool-types.js";
import { patchApplied, patchRefused } from "../lib/patch/envelope.js";
import { planAndCommit } from "../lib/patch/commit.js";
import { PATCH_TOUCH_KINDS, v4aTouches } from "../lib/patch/touches.js";
import { patchPreview } from "../lib/previews.js";
import { parseV4A } from "../lib/patch/v4a-parse.js";

export const applyPatchSchema = z.object({
  patch: z.string(),
});

export const applyPatchTool: ToolHandler<typeof applyPatchSchema> = {
  id: "apply_patch",
  schema: applyPatchSchema,
  effects: MUTATES,
  touchKinds: PATCH_TOUCH_KINDS,
  touches: (args) => v4aTouches(args.patch),
  matchValue: (args) => patchTarget(v4aTouches(args.patch)),
  permissions: { family: "edit", aliases: ["patch"] },
  view: { card: "expanded", preview: (args) => patchPreview(args, "patch") },
  async run(args, ctx) {
    const parsed = parseV4A(args.patch);
    if (!parsed.ok) return patchRefused("apply_patch", parsed.kind, parsed.message);
    const result = await planAndCommit(parsed.ops, ctx);
    if (!result.ok) return patchRefused("apply_patch", result.error.kind, result.error.message);
    return patchApplied("apply_patch", "ops", result.summaries);
  },
};
