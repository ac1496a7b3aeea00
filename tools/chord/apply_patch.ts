// Chord `apply_patch` (digest 2.1): the V4A grammar plus `*** Move to:`.
// Hunks apply in order, each matched after the previous one; repeated Update
// sections of one path chain in memory and commit as one mutation.
//
// Unlike Yuj's all-or-nothing tool, ops are grouped by independence — a group
// is every op touching the same paths, move sources and targets included —
// and each group is checked and written on its own. Independent groups may
// therefore succeed while others fail; the result lists exactly which paths
// were applied and which failed, and why.
//
// An updated file keeps its encoding (any Chord `read` decodes), BOM and line
// endings; text the encoding cannot hold fails that group, writing nothing.

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { parseV4A, type PatchOp } from "../lib/patch/v4a-parse.js";
import { commitPlan, PatchPlan, resolvePatchPath, type OpSummary, type PatchError } from "../lib/patch/plan.js";

export const chordApplyPatchSchema = z.object({
  patch: z.string(),
});

const RETRY_HINT = "Some changes were applied: check the applied files before retrying, and resend only the failed operations.";
const NONE_APPLIED = "No file changed: fix the failed operations and resend the patch.";

interface Group {
  ops: PatchOp[];
  /** Paths as the patch names them, first-seen order. */
  paths: string[];
  pathError?: PatchError;
}

/** Union of ops that share a (resolved) path; groups in order of their first op. */
async function groupOps(
  ops: readonly PatchOp[],
  fs: Parameters<typeof resolvePatchPath>[0],
  cwd: string,
  ownDirs: Parameters<typeof resolvePatchPath>[3],
): Promise<Group[]> {
  const parent = ops.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  const errors = new Map<number, PatchError>();
  for (const [i, op] of ops.entries()) {
    const names = op.kind === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path];
    for (const name of names) {
      const where = await resolvePatchPath(fs, cwd, name, ownDirs);
      if (!where.ok && !errors.has(i)) errors.set(i, where.error);
      const key = where.ok ? where.abs : `unresolved:${name}`;
      const prev = owner.get(key);
      if (prev === undefined) owner.set(key, i);
      else parent[find(i)] = find(prev);
    }
  }
  const groups = new Map<number, Group>();
  for (const [i, op] of ops.entries()) {
    const root = find(i);
    let g = groups.get(root);
    if (!g) {
      g = { ops: [], paths: [] };
      groups.set(root, g);
    }
    g.ops.push(op);
    for (const p of op.kind === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]) if (!g.paths.includes(p)) g.paths.push(p);
    const e = errors.get(i);
    if (e && !g.pathError) g.pathError = e;
  }
  // Map iteration follows insertion, which is the order of each group's first op.
  return [...groups.values()];
}

function appliedLines(plan: PatchPlan, summaries: readonly OpSummary[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of summaries) {
    if (s.moveDisplay !== undefined) {
      out.push(`applied: ${s.display} -> ${s.moveDisplay} (moved)`);
      seen.add(s.display);
      seen.add(s.moveDisplay);
      continue;
    }
    if (seen.has(s.display)) continue;
    seen.add(s.display);
    const state = [...plan.files.values()].find((f) => f.display === s.display);
    if (!state) continue;
    if (state.original === undefined && state.next === null) continue;
    const status = state.original === undefined ? "added" : state.next === null ? "deleted" : "updated";
    out.push(`applied: ${s.display} (${status})`);
  }
  return out;
}

function failedLines(group: Group, error: PatchError): string[] {
  const where = error.path ?? group.paths[0] ?? "patch";
  const msg = error.message.startsWith(`${where}: `) ? error.message.slice(where.length + 2) : error.message;
  const [first, ...rest] = msg.split("\n");
  const out = [`failed: ${where}: ${first}`, ...rest.map((l) => `  ${l}`)];
  for (const p of group.paths) if (p !== where) out.push(`failed: ${p}: not applied (same file group as ${where})`);
  return out;
}

export const chordApplyPatchTool: ToolHandler<typeof chordApplyPatchSchema> = {
  id: "chord_apply_patch",
  schema: chordApplyPatchSchema,
  readOnly: false,
  async run(args, ctx) {
    const parsed = parseV4A(args.patch, { allowMove: true });
    if (!parsed.ok) return fail(`apply_patch failed (${parsed.kind}): ${parsed.message}\n${NONE_APPLIED}`);
    const fs = ctx.services.fs;
    const groups = await groupOps(parsed.ops, fs, ctx.cwd, ctx.services.ownDirs);
    const lines: string[] = [];
    let applied = 0;
    for (const group of groups) {
      if (group.pathError) {
        lines.push(...failedLines(group, group.pathError));
        continue;
      }
      const plan = new PatchPlan(fs, ctx.cwd, { chordEncodings: true, ownDirs: ctx.services.ownDirs });
      let error: PatchError | undefined;
      for (const op of group.ops) {
        error = await plan.check(op);
        if (error) break;
      }
      error ??= await commitPlan(fs, [...plan.files.values()]);
      if (error) {
        lines.push(...failedLines(group, error));
        continue;
      }
      applied++;
      lines.push(...appliedLines(plan, plan.summaries));
    }
    const failed = groups.length - applied;
    const head = `apply_patch: ${applied} of ${groups.length} file group${groups.length === 1 ? "" : "s"} applied${failed ? `, ${failed} failed` : ""}`;
    if (failed === 0) return ok([head, ...lines].join("\n"));
    return fail([head, ...lines, applied > 0 ? RETRY_HINT : NONE_APPLIED].join("\n"));
  },
};
