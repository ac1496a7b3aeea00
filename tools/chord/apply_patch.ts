// Chord `apply_patch`: the V4A grammar with `*** Move to:`. Hunks apply in
// order, each matched after the previous one; repeated Update sections of one
// path chain in memory and commit as one mutation. A hunk that differs from
// the file only in punctuation forms or spacing still matches when it matches
// once, and the file's own characters are kept.
//
// Unlike Yuj's all-or-nothing tool, independent file groups may succeed
// while others fail (tools/lib/patch/chord-groups.ts); the result lists what
// was applied (`A`dded, `M`odified, `D`eleted, `R`enamed) and what was not,
// and why. A file changed on disk since the session last saw it (any read,
// or its own write or change) is still patched when the hunks match, with a
// warning and a backup.
//
// An updated file keeps its encoding (any Chord `read` decodes), BOM and line
// endings; text the encoding cannot hold fails the patch, writing nothing.

import { z } from "zod";
import { fail, MUTATES, ok, type ToolContext, type ToolHandler } from "../../core/tool-types.js";
import { parseV4A, type PatchOp } from "../lib/patch/v4a-parse.js";
import { cleanedLine, controlCharRefusal, describeInvisible, stripInvisible } from "../lib/invisible-chars.js";
import { commitPlan, overlapError } from "../lib/patch/commit.js";
import { planGroups, type DroppedGroup } from "../lib/patch/chord-groups.js";
import { resolvePatchPath, type FileState, type PatchPlan } from "../lib/patch/plan.js";
import { armFailedPatch, isUnchangedRetry, noteChangedForRetry, noteMatchFailure } from "../lib/chord/retry-memory.js";
import { backupBytes, noteOwnChange, observation, sha256 } from "../lib/chord/observations.js";
import { patchTarget } from "../../core/permissions/match-target.js";
import { PATCH_TOUCH_KINDS, v4aTouches } from "../lib/patch/touches.js";
import { patchPreview } from "../lib/previews.js";
import { yujPaths } from "../lib/file-access.js";

export const chordApplyPatchSchema = z.object({
  patch: z.string(),
});

const NONE_APPLIED = "No file changed: fix the failed operations and resend the patch.";

/**
 * The applied list (after the commit): one `A`/`M`/`D`/`R` line per file,
 * sorted as the reference sorts them (by marker, then path, byte order). A
 * move onto a file that existed is still a move (`R old -> new`).
 */
function appliedLines(plan: PatchPlan): string[] {
  const states = [...plan.files.values()];
  const byAbs = new Map(states.map((s) => [s.abs, s]));
  const movedFrom = new Map<string, string>(); // destination abs -> source abs
  for (const s of plan.summaries) {
    if (s.op.kind !== "update" || s.moveDisplay === undefined) continue;
    const src = states.find((f) => f.display === s.display);
    const dst = states.find((f) => f.display === s.moveDisplay);
    if (src && dst) movedFrom.set(dst.abs, movedFrom.get(src.abs) ?? src.abs);
  }
  const renamed = new Map<string, FileState>(); // source abs -> final destination
  for (const [dst, src] of movedFrom) {
    const d = byAbs.get(dst)!;
    const s = byAbs.get(src)!;
    if (d.next !== null && s.next === null && s.original !== undefined) renamed.set(src, d);
  }
  const done = new Set<string>();
  const out: string[] = [];
  for (const s of states) {
    if (done.has(s.abs)) continue;
    const to = renamed.get(s.abs);
    if (to) {
      out.push(`R ${s.display} -> ${to.display}`);
      done.add(to.abs);
      continue;
    }
    if (s.written === undefined) continue;
    out.push(`${s.original === undefined ? "A" : s.next === null ? "D" : "M"} ${s.display}`);
  }
  return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

function notAppliedLines(dropped: readonly DroppedGroup[]): string[] {
  return dropped.map((d) => {
    const [first, ...rest] = d.cause.split("\n");
    const together = d.ops > 1 && !/^(skipped|rolled back):/.test(d.cause)
      ? ` (this file group has ${d.ops} operations; the others matched in memory but were not applied: keep it with the failed operation when revising the group)`
      : "";
    return [`- ${d.path}: ${first}${together}`, ...rest.map((l) => `  ${l}`)].join("\n");
  });
}

/** Backs up each file that changed on disk since the session last saw it (a read, paged or not, or its own change). */
async function driftWarnings(plan: PatchPlan, ctx: ToolContext): Promise<string[]> {
  const out: string[] = [];
  for (const s of plan.files.values()) {
    if (s.original === undefined) continue;
    const seen = observation(ctx.memory, s.abs)?.seen;
    if (seen === undefined || seen === sha256(s.original)) continue;
    const backup = await backupBytes(ctx.services.fs, ctx.sessionDir, "apply_patch", s.display, s.original).catch(() => undefined);
    out.push(
      `warning: ${s.display} changed on disk since it was last read; the patch was applied to the current content` +
        (backup ? ` (previous content backed up to ${backup})` : ""),
    );
  }
  return out;
}

function noteWritten(plan: PatchPlan, ctx: ToolContext): void {
  for (const s of plan.files.values()) {
    if (s.written === undefined) continue;
    noteChangedForRetry(ctx.memory, s.abs);
    // The session's own change is never reported as drift next time.
    if (s.written) noteOwnChange(ctx.memory, s.abs, sha256(s.written));
  }
}

/** Every file the patch names, by real path (a name that does not resolve is the plan's to refuse). */
async function namedFiles(ops: readonly PatchOp[], ctx: ToolContext): Promise<Map<string, string>> {
  const out = new Map<string, string>(); // abs -> display
  for (const op of ops) {
    for (const name of op.kind === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]) {
      const where = await resolvePatchPath(ctx.services.fs, ctx.cwd, name, { ownDirs: ctx.services.ownDirs });
      if (where.ok) out.set(where.abs, where.display);
    }
  }
  return out;
}

const unchangedRetryText = (shown: readonly string[]) =>
  `apply_patch refused: this exact patch already failed, and its files (${shown.join(", ")}) have not changed on disk or been read since, ` +
  "so it would fail the same way. Read the current target range and rebuild the failed hunks from it, or send a changed patch.";

/**
 * After a failure: the patch is remembered against its files as they are, and
 * a one-file patch whose hunk found no match counts toward the re-read note.
 */
async function noteFailure(patch: string, named: Map<string, string>, dropped: readonly DroppedGroup[], ctx: ToolContext): Promise<string> {
  await armFailedPatch(ctx.memory, ctx.services.fs, sha256(patch), [...named.keys()]);
  const [only] = named;
  if (named.size !== 1 || !dropped.some((d) => d.cause.startsWith("hunk not found"))) return "";
  return noteMatchFailure(ctx.memory, only![0], only![1]);
}

/**
 * Content-free characters (zero-width runes, orphaned selectors, combining
 * marks with no letter) come off the lines the patch adds before anything is
 * planned; the file's untouched lines keep theirs. Returns the ones that went.
 */
function cleanAddedLines(ops: PatchOp[]): string[] {
  const removed: string[] = [];
  const clean = (text: string): string => {
    const c = stripInvisible(text);
    removed.push(...c.removed);
    return c.text;
  };
  for (const op of ops) {
    if (op.kind === "add") op.lines = op.lines.map(clean);
    if (op.kind === "update") for (const h of op.hunks) for (const l of h.lines) if (l.kind === "+") l.text = clean(l.text);
  }
  return removed;
}

/**
 * Why an added line is refused for a control character the hunk's own old
 * lines do not already hold, or undefined.
 */
function addedControlChar(ops: readonly PatchOp[]): string | undefined {
  for (const op of ops) {
    if (op.kind === "add") {
      const why = controlCharRefusal(`the added file ${op.path}`, op.lines.join("\n"));
      if (why) return why;
    }
    if (op.kind !== "update") continue;
    for (const h of op.hunks) {
      const old = h.lines.filter((l) => l.kind !== "+").map((l) => l.text).join("\n");
      const why = controlCharRefusal(`an added line for ${op.path}`, h.lines.filter((l) => l.kind === "+").map((l) => l.text).join("\n"), old);
      if (why) return why;
    }
  }
  return undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export const chordApplyPatchTool: ToolHandler<typeof chordApplyPatchSchema> = {
  id: "chord_apply_patch",
  schema: chordApplyPatchSchema,
  effects: MUTATES,
  touchKinds: PATCH_TOUCH_KINDS,
  touches: (args) => v4aTouches(args.patch, { chord: true }),
  matchValue: (args) => patchTarget(v4aTouches(args.patch, { chord: true })),
  permissions: { family: "edit", aliases: ["patch"] },
  view: { card: "expanded", preview: (args) => patchPreview(args, "patch") },
  // Chord takes the patch sent bare or as one JSON string; its older
  // single-file form (`path` and bare hunks) as an Update File of that path,
  // and otherwise ignores a `path`. That form was one file's hunks: a file
  // operation among them is not folded (the parser refuses it), and a closing
  // `*** End Patch` the model added is the template's own.
  argForms: {
    text: "patch",
    ignored: ["path"],
    fold: {
      from: "path",
      into: "patch",
      when: "^\\s*@@",
      unless: "^\\*\\*\\* (Begin Patch|Update File:|Add File:|Delete File:|Move to:)",
      drop: "^\\*\\*\\* End Patch\\s*$",
      template: "*** Begin Patch\n*** Update File: {from}\n{into}\n*** End Patch",
      note: 'Note: apply_patch takes the whole envelope in "patch"; the bare hunks and "path" were read as "*** Update File: {from}".',
    },
  },
  async run(args, ctx) {
    const visible = stripInvisible(args.patch);
    if (visible.text.trim() === "" && args.patch.trim() !== "") {
      return fail(`apply_patch failed: the patch contains only invisible characters: ${describeInvisible(visible.removed)}\n${NONE_APPLIED}`);
    }
    const parsed = parseV4A(args.patch, { chord: true });
    if (!parsed.ok) return fail(`apply_patch failed (${parsed.kind}): ${parsed.message}\n${NONE_APPLIED}`);
    const cleaned = cleanAddedLines(parsed.ops);
    const control = addedControlChar(parsed.ops);
    if (control) return fail(`apply_patch failed: ${control}\n${NONE_APPLIED}`);
    const named = await namedFiles(parsed.ops, ctx);
    if (await isUnchangedRetry(ctx.memory, ctx.services.fs, sha256(args.patch))) {
      return fail(`${unchangedRetryText([...named.values()])}\n${NONE_APPLIED}`);
    }
    const fs = ctx.services.fs;
    const options = { chordEncodings: true, chord: true, ownDirs: ctx.services.ownDirs, access: yujPaths(ctx, "write") };
    const overlap = await overlapError(parsed.ops, fs, ctx.cwd, options);
    if (overlap) return fail(`apply_patch failed (overlap): ${overlap.message}\n${NONE_APPLIED}`);
    const grouped = await planGroups(parsed.ops, fs, ctx.cwd, options);
    if ("error" in grouped) return fail(`apply_patch failed (${grouped.error.kind}): ${grouped.error.message}\n${NONE_APPLIED}`);
    const { plan, dropped } = grouped;
    const warnings = await driftWarnings(plan, ctx);
    const writeError = await commitPlan(fs, [...plan.files.values()]);
    if (writeError) return fail(`apply_patch failed (${writeError.kind}): ${writeError.message}\n${NONE_APPLIED}`);
    noteWritten(plan, ctx);
    const applied = appliedLines(plan);
    const tolerant = plan.summaries.reduce((n, s) => n + s.tolerant, 0);
    const notes = [...warnings];
    // The reference's note, word for word: its count reads "N hunk(s)".
    if (tolerant > 0) notes.push(`Note: used punctuation/whitespace-tolerant matching for ${tolerant} hunk(s); unchanged text was preserved from the current file`);
    if (cleaned.length > 0) notes.push(cleanedLine(cleaned, "the patch text"));
    const appliedBlock = applied.length > 0 ? ["Applied patch:", ...applied, ...notes] : [];
    // Nothing changed (a hunk that rewrites a line as it was, an added file deleted again): the reference's words.
    if (dropped.length === 0) return ok((appliedBlock.length ? appliedBlock : ["Applied patch:", "No net file changes", ...notes]).join("\n"));
    const groupsLeft = `${plural(dropped.length, "file group")} not applied`;
    const tail =
      applied.length > 0
        ? `apply_patch partially applied: ${groupsLeft}; the changes under "Applied patch" are on disk; resolve each cause above and resubmit only the failed file groups rebuilt from current file contents.`
        : `apply_patch failed: ${groupsLeft} and no file changed; resolve each cause above and resubmit the failed file groups rebuilt from current file contents.`;
    const advice = await noteFailure(args.patch, named, dropped, ctx);
    const blocks = [...(appliedBlock.length ? [appliedBlock.join("\n")] : []), ["Not applied:", ...notAppliedLines(dropped)].join("\n"), tail + advice];
    return fail(blocks.join("\n\n"));
  },
};
