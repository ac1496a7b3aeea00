// Writing a checked patch plan: every file is encoded first (text its
// encoding cannot hold fails the whole commit with nothing written), then
// written atomically in order. If a write fails, the files written before it
// are restored, modes included, and directories it created are removed.

import * as path from "node:path";
import type { FileSystem } from "../../../core/services.js";
import type { ToolContext } from "../../../core/tool-types.js";
import { encodeForChord, UnencodableError } from "../chord/encode.js";
import { PatchPlan, resolvePatchPath, type FileState, type OpSummary, type PatchError, type PatchPlanOptions } from "./plan.js";
import type { PatchOp } from "./v4a-parse.js";
import { fsErrorText } from "../fs-error.js";
import { yujPaths } from "../file-access.js";
import { atomicWriteChecked, rmdirChecked, unlinkChecked } from "../pinned-fs.js";

/** The bytes a planned state will write: null to delete, undefined when nothing changes. */
async function plannedBytes(s: FileState): Promise<Uint8Array | null | undefined> {
  if (s.next === null) return s.original === undefined ? undefined : null;
  const bytes = s.next.raw ?? (await encodeForChord(s.next.text, s.next));
  const modeChanges = s.nextMode !== undefined && s.nextMode !== s.mode;
  // Compared in place: copying the original first cost as much again on a large file.
  if (s.original !== undefined && !modeChanges && Buffer.compare(s.original, bytes) === 0) return undefined;
  return bytes;
}

async function missingDirs(fs: FileSystem, dir: string): Promise<string[]> {
  const out: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      await fs.stat(cur);
      return out;
    } catch {
      out.push(cur);
      const parent = path.dirname(cur);
      if (parent === cur) return out;
      cur = parent;
    }
  }
}

export async function commitPlan(fs: FileSystem, states: readonly FileState[]): Promise<PatchError | undefined> {
  const planned: Array<Uint8Array | null | undefined> = [];
  for (const s of states) {
    try {
      planned.push(await plannedBytes(s));
    } catch (err) {
      if (!(err instanceof UnencodableError)) throw err;
      return { kind: "unencodable", message: `cannot update ${s.display}: ${err.message}`, path: s.display };
    }
  }
  const drift = await changedSincePlanned(fs, states, planned);
  if (drift) return drift;
  const done: FileState[] = [];
  const created: string[] = [];
  for (const [i, s] of states.entries()) {
    const bytes = planned[i];
    if (bytes === undefined) continue;
    try {
      if (bytes === null) await unlinkChecked(fs, s.abs);
      else {
        created.push(...(await missingDirs(fs, path.dirname(s.abs))));
        await atomicWriteChecked(fs, s.abs, bytes, { createParents: true, ...(s.nextMode !== undefined ? { exactMode: s.nextMode } : {}) });
      }
      done.push(s);
    } catch (err) {
      const failed = `cannot write ${s.display}: ${fsErrorText(err)}`;
      const unrestored = await restore(fs, done.reverse());
      for (const dir of created.reverse()) {
        try {
          // rmdir removes only an empty folder, and never through a link swapped in.
          await rmdirChecked(fs, dir);
        } catch {
          /* already gone or not empty */
        }
      }
      const restored = unrestored.length
        ? `; could NOT restore ${unrestored.join(", ")}`
        : done.length
          ? `; restored ${done.length} file${done.length === 1 ? "" : "s"} already written, so no file changed`
          : "; no file changed";
      return { kind: "write_failed", message: failed + restored, path: s.display };
    }
  }
  for (const [i, s] of states.entries()) if (planned[i] !== undefined) s.written = planned[i];
  return undefined;
}

/**
 * A file the plan is about to write that changed on disk after it was read
 * (or appeared where none was): writing would lose that change.
 */
async function changedSincePlanned(fs: FileSystem, states: readonly FileState[], planned: ReadonlyArray<Uint8Array | null | undefined>): Promise<PatchError | undefined> {
  for (const [i, s] of states.entries()) {
    if (planned[i] === undefined) continue;
    let now: { size: number; mtimeMs: number; mode: number } | undefined;
    try {
      const st = await fs.stat(s.abs);
      now = { size: st.size, mtimeMs: st.mtimeMs, mode: st.mode & 0o7777 };
    } catch {
      now = undefined;
    }
    const same = s.seen === undefined ? now === undefined : now !== undefined && now.size === s.seen.size && now.mtimeMs === s.seen.mtimeMs && now.mode === s.mode;
    if (!same) {
      const what = s.seen === undefined ? "appeared" : now === undefined ? "was removed" : "changed";
      return { kind: "verify", message: `${s.display} ${what} on disk after the patch was checked (source changed after planning); no file changed: read it again and resend the patch`, path: s.display };
    }
  }
  return undefined;
}

/** Puts back the files written so far; answers the ones it could not. */
async function restore(fs: FileSystem, written: readonly FileState[]): Promise<string[]> {
  const unrestored: string[] = [];
  for (const w of written) {
    try {
      if (w.original === undefined) await unlinkChecked(fs, w.abs);
      else await atomicWriteChecked(fs, w.abs, w.original, { createParents: true, ...(w.mode !== undefined ? { exactMode: w.mode } : {}) });
    } catch {
      unrestored.push(w.display);
    }
  }
  return unrestored;
}

/**
 * Refuses a patch whose targets overlap before anything is checked or
 * written: one target inside another (`generated` and `generated/child.txt`),
 * or two names of one file (hard links), since writing one would silently
 * change or undo the other.
 */
export async function overlapError(ops: readonly PatchOp[], fs: FileSystem, cwd: string, options: PatchPlanOptions): Promise<PatchError | undefined> {
  const targets = new Map<string, string>(); // abs -> name as the patch gives it
  for (const op of ops) {
    for (const name of op.kind === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]) {
      const where = await resolvePatchPath(fs, cwd, name, options);
      if (where.ok && !targets.has(where.abs)) targets.set(where.abs, name);
    }
  }
  const entries = [...targets.entries()];
  for (const [a, an] of entries) {
    for (const [b, bn] of entries) {
      if (a !== b && b.startsWith(a + path.sep)) {
        return { kind: "overlap", message: `overlapping operations: ${bn} is inside ${an}, which the patch also changes; split them into two patches`, path: an };
      }
    }
  }
  const inodes = new Map<string, string>();
  for (const [abs, name] of entries) {
    try {
      const st = await fs.stat(abs);
      if (!st.isFile()) continue;
      const key = `${st.dev}:${st.ino}`;
      const other = inodes.get(key);
      if (other !== undefined) {
        return { kind: "overlap", message: `overlapping operations: ${other} and ${name} are the same file (hard links); change it under one name only`, path: other };
      }
      inodes.set(key, name);
    } catch {
      /* not there yet */
    }
  }
  return undefined;
}

/** Checks every op, then commits them together (Yuj: all or nothing). */
export async function planAndCommit(
  ops: readonly PatchOp[],
  ctx: ToolContext,
  options: Omit<PatchPlanOptions, "ownDirs"> = {},
): Promise<{ ok: true; summaries: OpSummary[] } | { ok: false; error: PatchError }> {
  const fs = ctx.services.fs;
  const planOptions = { ...options, ownDirs: ctx.services.ownDirs, access: yujPaths(ctx, "write") };
  const overlap = await overlapError(ops, fs, ctx.cwd, planOptions);
  if (overlap) return { ok: false, error: overlap };
  const plan = new PatchPlan(fs, ctx.cwd, planOptions);
  for (const op of ops) {
    const err = await plan.check(op);
    if (err) return { ok: false, error: err };
  }
  const err = await commitPlan(fs, [...plan.files.values()]);
  if (err) return { ok: false, error: err };
  return { ok: true, summaries: plan.summaries };
}
