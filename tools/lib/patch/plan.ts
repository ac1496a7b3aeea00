// The patch engine behind Yuj's apply_patch and udiff and Chord's apply_patch:
// every op and hunk is checked against an in-memory view of the files first —
// an Add target must not exist, an Update or Delete target must, every hunk
// must locate once — and only then are the files written, each atomically. If
// a write fails, the files already written are restored. Files keep their BOM
// and line endings; Chord plans also update files in the other encodings
// Chord `read` decodes, keeping them in that encoding.

import * as path from "node:path";
import type { OwnDir } from "../../../core/paths.js";
import type { FileSystem } from "../../../core/services.js";
import type { ToolContext } from "../../../core/tool-types.js";
import { atomicWrite } from "../atomic-write.js";
import { sizeAndLimit, tooLarge } from "../file-limits.js";
import { applyHunks, type HunkErrorKind } from "./apply-file.js";
import type { PatchOp } from "./v4a-parse.js";
import { didYouMean, resolveInCwd } from "../paths.js";
import { decodeForChordEdit, encodeForChord, undecodableReason, UnencodableError } from "../chord/encode.js";
import { decodeText } from "../text-file.js";

export type PatchErrorKind =
  | "parse"
  | "path_outside_cwd"
  | "file_exists"
  | "file_not_found"
  | "read_failed"
  | HunkErrorKind
  | "unknown_op_kind"
  | "unencodable"
  | "verify";

export interface PatchError {
  kind: PatchErrorKind;
  message: string;
  /** The path (as the patch names it) the error is about, when there is one. */
  path?: string;
}

interface Content {
  text: string;
  bom: boolean;
  crlf: boolean;
  /** Set only for a non-UTF-8 encoding (Chord plans only). */
  encoding?: string;
  /** Not decodable text: it can be deleted, but no hunk can read it. */
  binary?: boolean;
  /** Why it is not decodable, when more is known than "not UTF-8". */
  why?: string;
}

export interface PatchPlanOptions {
  /** Decode (and write back) every encoding Chord `read` shows, not only UTF-8. */
  chordEncodings?: boolean;
  /** yuj's own directories, never written (Services.ownDirs). */
  ownDirs: readonly OwnDir[];
}

/** One file the patch touches: what is on disk now, and what it will hold. */
export interface FileState {
  abs: string;
  display: string;
  /** Bytes on disk before the patch; undefined when the file did not exist. */
  original: Uint8Array | undefined;
  mode: number | undefined;
  /** The planned content; null when the file will not exist. */
  next: Content | null;
}

export interface OpSummary {
  op: PatchOp;
  display: string;
  moveDisplay?: string;
  /** Added files: their line count. */
  lines: number;
  hunks: number;
  removed: number;
  added: number;
}

export type Resolved = { ok: true; abs: string; display: string } | { ok: false; error: PatchError };

export async function resolvePatchPath(fs: FileSystem, cwd: string, p: string, ownDirs: readonly OwnDir[]): Promise<Resolved> {
  const where = await resolveInCwd(fs, cwd, p, { forbidNewline: true, write: { ownDirs } });
  if (!where.ok) return { ok: false, error: { kind: "path_outside_cwd", message: where.error.replace(/^ERROR: /, ""), path: p } };
  return { ok: true, abs: where.abs, display: where.display };
}

/** Checks ops in order against an in-memory view of the files; writes nothing. */
export class PatchPlan {
  readonly files = new Map<string, FileState>();
  readonly summaries: OpSummary[] = [];

  constructor(
    private readonly fs: FileSystem,
    private readonly cwd: string,
    private readonly options: PatchPlanOptions,
  ) {}

  private decode(bytes: Uint8Array): Content {
    if (!this.options.chordEncodings) return decodeText(bytes) ?? { text: "", bom: false, crlf: false, binary: true };
    const d = decodeForChordEdit(bytes);
    if (d.ok) return { text: d.text, bom: d.bom, crlf: d.crlf, encoding: d.encoding };
    return { text: "", bom: false, crlf: false, binary: true, why: undecodableReason(d) };
  }

  private async state(abs: string, display: string, shown: string): Promise<FileState | PatchError> {
    const known = this.files.get(abs);
    if (known) return known;
    let original: Uint8Array | undefined;
    let mode: number | undefined;
    let next: Content | null = null;
    try {
      const st = await this.fs.stat(abs);
      if (st.isDirectory()) return { kind: "read_failed", message: `${shown} is a directory`, path: shown };
      if (tooLarge(st.size)) {
        const message = `${shown} is too large to patch ${sizeAndLimit(st.size)}; change it with a shell command (sed, or a script that streams it) instead`;
        return { kind: "read_failed", message, path: shown };
      }
      mode = st.mode & 0o7777;
    } catch {
      original = undefined;
    }
    if (mode !== undefined) {
      try {
        original = await this.fs.readFile(abs);
      } catch (err) {
        return { kind: "read_failed", message: `cannot read ${shown}: ${(err as Error).message}`, path: shown };
      }
      // Undecodable files are only an error when a hunk must read them.
      next = this.decode(original);
    }
    const s: FileState = { abs, display, original, mode, next };
    this.files.set(abs, s);
    return s;
  }

  private async resolve(p: string): Promise<Resolved> {
    return resolvePatchPath(this.fs, this.cwd, p, this.options.ownDirs);
  }

  private async notFound(p: string, what: string): Promise<PatchError> {
    return { kind: "file_not_found", message: `${what}: file not found: ${p}${await didYouMean(this.fs, this.cwd, p)}`, path: p };
  }

  /** Checks one op and records its effect; an error leaves the plan unusable. */
  async check(op: PatchOp): Promise<PatchError | undefined> {
    const where = await this.resolve(op.path);
    if (!where.ok) return where.error;
    const s = await this.state(where.abs, where.display, op.path);
    if ("kind" in s) return s.kind === "read_failed" && op.kind === "add" ? { ...s, kind: "file_exists" } : s;
    if (op.kind === "add") {
      if (s.next !== null) {
        return { kind: "file_exists", message: `Add File: ${op.path} already exists; use Update File to change it`, path: op.path };
      }
      s.next = { text: op.lines.length ? op.lines.join("\n") + "\n" : "", bom: false, crlf: false };
      this.summaries.push({ op, display: where.display, lines: op.lines.length, hunks: 0, removed: 0, added: 0 });
      return undefined;
    }
    if (s.next === null) return this.notFound(op.path, op.kind === "delete" ? "Delete File" : "Update File");
    if (op.kind === "delete") {
      s.next = null;
      this.summaries.push({ op, display: where.display, lines: 0, hunks: 0, removed: 0, added: 0 });
      return undefined;
    }
    if (s.next.binary) {
      return { kind: "read_failed", message: `cannot update ${op.path}: ${s.next.why ?? "file is not valid UTF-8 text"}`, path: op.path };
    }
    const applied = applyHunks(s.next.text, op.hunks, op.path);
    if (!applied.ok) return { kind: applied.kind, message: applied.message, path: op.path };
    const content: Content = { ...s.next, text: applied.text };
    const summary: OpSummary = { op, display: where.display, lines: 0, hunks: applied.hunks, removed: applied.removed, added: applied.added };
    if (op.moveTo !== undefined && op.moveTo !== op.path) {
      const dest = await this.resolve(op.moveTo);
      if (!dest.ok) return dest.error;
      const d = await this.state(dest.abs, dest.display, op.moveTo);
      if ("kind" in d) return { ...d, kind: "file_exists" };
      if (d !== s) {
        if (d.next !== null) return { kind: "file_exists", message: `Move to: ${op.moveTo} already exists`, path: op.moveTo };
        s.next = null;
        d.next = content;
        summary.moveDisplay = dest.display;
        this.summaries.push(summary);
        return undefined;
      }
    }
    s.next = content;
    this.summaries.push(summary);
    return undefined;
  }
}

/** The bytes a planned state will write, or undefined when nothing changes. */
async function plannedBytes(s: FileState): Promise<Uint8Array | null | undefined> {
  if (s.next === null) return s.original === undefined ? undefined : null;
  const bytes = await encodeForChord(s.next.text, s.next);
  // Compared in place: copying the original first cost as much again on a large file.
  if (s.original !== undefined && Buffer.compare(s.original, bytes) === 0) return undefined;
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

/**
 * Writes the planned states atomically, in order. If one fails, the ones
 * written before it are restored (and directories it created removed).
 */
export async function commitPlan(fs: FileSystem, states: readonly FileState[]): Promise<PatchError | undefined> {
  // Every file is encoded before any is written: text its encoding cannot
  // hold fails the whole commit with nothing on disk changed.
  const planned: Array<Uint8Array | null | undefined> = [];
  for (const s of states) {
    try {
      planned.push(await plannedBytes(s));
    } catch (err) {
      if (!(err instanceof UnencodableError)) throw err;
      return { kind: "unencodable", message: `cannot update ${s.display}: ${err.message}`, path: s.display };
    }
  }
  const done: FileState[] = [];
  const created: string[] = [];
  for (const [i, s] of states.entries()) {
    const bytes = planned[i];
    if (bytes === undefined) continue;
    try {
      if (bytes === null) await fs.unlink(s.abs);
      else {
        created.push(...(await missingDirs(fs, path.dirname(s.abs))));
        await atomicWrite(fs, s.abs, bytes, { createParents: true });
      }
      done.push(s);
    } catch (err) {
      const failed = `cannot write ${s.display}: ${(err as Error).message}`;
      const unrestored: string[] = [];
      for (const w of done.reverse()) {
        try {
          if (w.original === undefined) await fs.unlink(w.abs);
          else {
            await atomicWrite(fs, w.abs, w.original, { createParents: true });
            if (w.mode !== undefined) await fs.chmod(w.abs, w.mode);
          }
        } catch {
          unrestored.push(w.display);
        }
      }
      for (const dir of created) {
        try {
          if ((await fs.readdir(dir)).length === 0) await fs.rm(dir, { recursive: true });
        } catch {
          /* already gone or not empty */
        }
      }
      const restored = unrestored.length
        ? `; could NOT restore ${unrestored.join(", ")}`
        : done.length
          ? `; restored ${done.length} file${done.length === 1 ? "" : "s"} already written, so no file changed`
          : "; no file changed";
      return { kind: "verify", message: failed + restored, path: s.display };
    }
  }
  return undefined;
}

/** Checks every op, then commits them together. */
export async function planAndCommit(ops: readonly PatchOp[], ctx: ToolContext): Promise<{ ok: true; summaries: OpSummary[] } | { ok: false; error: PatchError }> {
  const plan = new PatchPlan(ctx.services.fs, ctx.cwd, { ownDirs: ctx.services.ownDirs });
  for (const op of ops) {
    const err = await plan.check(op);
    if (err) return { ok: false, error: err };
  }
  const err = await commitPlan(ctx.services.fs, [...plan.files.values()]);
  if (err) return { ok: false, error: err };
  return { ok: true, summaries: plan.summaries };
}
