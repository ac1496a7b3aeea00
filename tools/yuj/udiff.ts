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
//
// The model reads one line: `OK: applied unified diff (N file(s))`, with
// `; fuzzy=whitespace_normalized` for each hunk placed only by whitespace
// tolerance, or `ERROR: udiff KIND: …`. The view lists each file.

import { z } from "zod";
import { patchTarget } from "../../core/permissions/match-target.js";
import { fail, MUTATES, ok, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import { summaryLine } from "../lib/patch/envelope.js";
import type { OpSummary, PatchErrorKind } from "../lib/patch/plan.js";
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
    if (!parsed.ok) return refused(parsed.kind, parsed.message);
    const result = await planAndCommit(parsed.ops, ctx, { unifiedDiff: true });
    if (!result.ok) return refused(result.error.kind, result.error.message);
    return applied(result.summaries);
  },
};

function applied(summaries: readonly OpSummary[]): ToolResult {
  const fuzzy = summaries.flatMap((s) => Array<string>(s.tolerant).fill("whitespace_normalized"));
  const files = new Set(summaries.map((s) => s.display)).size;
  const text = `OK: applied unified diff (${files} file(s)${fuzzy.length ? `; fuzzy=${fuzzy.join(",")}` : ""})`;
  return ok(text, { kind: "text", text: summaries.map((x) => summaryLine(x).trim()).join("\n") });
}

function refused(kind: PatchErrorKind, message: string): ToolResult {
  // A rename is a diff this tool cannot read, as a malformed one is.
  const shownKind = kind === "unknown_op_kind" ? "parse" : kind;
  return fail(`ERROR: udiff ${shownKind}: ${message}`, { kind: "text", text: `ERROR: ${message}` });
}
