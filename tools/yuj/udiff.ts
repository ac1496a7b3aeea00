// `udiff` (Yuj): a standard unified diff, checked like
// apply_patch — every file and hunk before any write, all or nothing.
//
//   --- a/path   (or /dev/null for a new file)
//   +++ b/path   (or /dev/null for a deleted file)
//   @@ -a,b +c,d @@
//    context / -removed / +added   (a blank line is an empty context line)
//
// Hunk line numbers are only hints: each hunk is located by its old lines
// (one unique exact, else whitespace-normalised, match; two matches are
// ambiguous and change nothing). A header's line number places a pure
// insertion. `+++ /dev/null` deletes a file only when the hunks remove all
// of it. `\ No newline at end of file` is honoured.
// `diff --git`, `index`, and similar header lines are skipped.

import { z } from "zod";
import { patchTarget } from "../../core/permissions/match-target.js";
import { MUTATES, type ToolHandler } from "../../core/tool-types.js";
import { patchApplied, patchRefused } from "../lib/patch/envelope.js";
import { planAndCommit } from "../lib/patch/commit.js";
import { PATCH_TOUCH_KINDS, udiffTouches } from "../lib/patch/touches.js";
import { patchPreview } from "../lib/previews.js";
import { parseUdiff } from "../lib/patch/udiff-parse.js";

export const udiffSchema = z.object({
  patch: z.string(),
});

export const udiffTool: ToolHandler<typeof udiffSchema> = {
  id: "udiff",
  schema: udiffSchema,
  effects: MUTATES,
  touchKinds: PATCH_TOUCH_KINDS,
  touches: (args) => udiffTouches(args.patch),
  matchValue: (args) => patchTarget(udiffTouches(args.patch)),
  permissions: { family: "edit" },
  view: { card: "expanded", preview: (args) => patchPreview(args, "patch") },
  async run(args, ctx) {
    const parsed = parseUdiff(args.patch);
    if (!parsed.ok) return patchRefused("udiff", parsed.kind, parsed.message);
    const result = await planAndCommit(parsed.ops, ctx, { unifiedDiff: true });
    if (!result.ok) return patchRefused("udiff", result.error.kind, result.error.message);
    return patchApplied("udiff", "files", result.summaries);
  },
};
