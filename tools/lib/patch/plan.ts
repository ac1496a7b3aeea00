// The patch engine behind Yuj's apply_patch and udiff and Chord's apply_patch:
// every op and hunk is checked against an in-memory view of the files first —
// an Add target must not exist, an Update or Delete target must, every hunk
// must locate once — and only then are the files written (commit.ts). Files
// keep their BOM and every line's ending; Chord plans also update files in
// the other encodings Chord `read` decodes, keeping them in that encoding. A
// moved file keeps its permission bits; a re-created one gets a fresh 0644.

import * as path from "node:path";
import type { OwnDir } from "../../../core/paths.js";
import type { FileSystem } from "../../../core/services.js";
import { sizeAndLimit, tooLarge } from "../file-limits.js";
import { applyHunks, type HunkErrorKind } from "./apply-file.js";
import type { PatchOp } from "./v4a-parse.js";
import { didYouMean, didYouMeanList, isHiddenRefusal, resolveInCwd, type ResolveOptions } from "../paths.js";
import { readChecked } from "../pinned-fs.js";
import { decodeForChordEdit, undecodableReason } from "../chord/encode.js";
import { splitKeepingEndings } from "../line-endings.js";
import { normaliseLine } from "./locate.js";
import { decodeTextKeepingEndings } from "../text-file.js";

export type PatchErrorKind =
  | "parse"
  | "path_outside_cwd"
  | "file_exists"
  | "file_not_found"
  | "read_failed"
  /** udiff's name (the reference's) for a target that is not UTF-8 text; the V4A tools say read_failed. */
  | "binary_file"
  | HunkErrorKind
  | "unknown_op_kind"
  | "unencodable"
  | "delete_not_empty"
  | "parent_not_directory"
  | "overlap"
  | "verify"
  /** The file system refused a write (a read-only mount, no space); what was written is put back. */
  | "write_failed";

export interface PatchError {
  kind: PatchErrorKind;
  message: string;
  /** The path (as the patch names it) the error is about, when there is one. */
  path?: string;
}

export interface Content {
  /** The decoded text, every line ending as it is in the file. */
  text: string;
  bom: boolean;
  /** Always false here: the text keeps its own line endings. */
  crlf: boolean;
  /** The file's bytes while the content is unchanged (a pure move writes them as they are). */
  raw?: Uint8Array;
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
  /** What [sandbox].unreadable_paths hides (file-access.ts): never read, never written, never shown as a candidate. */
  access?: Pick<ResolveOptions, "hidden" | "hiddenError">;
  /** Chord's matching (punctuation-tolerant) and wording. */
  chord?: boolean;
  /** A unified diff: an updated file ends as the diff says, not always with a newline. */
  unifiedDiff?: boolean;
}

/** Permission bits of a file a patch creates where one was deleted or moved away. */
const FRESH_MODE = 0o644;
/** How Chord starts the error for an operation whose file is not there. */
export const CHORD_MISSING_SOURCE = "read apply_patch source";

/** One file the patch touches: what is on disk now, and what it will hold. */
export interface FileState {
  abs: string;
  display: string;
  /** Bytes on disk before the patch; undefined when the file did not exist. */
  original: Uint8Array | undefined;
  mode: number | undefined;
  /** The planned content; null when the file will not exist. */
  next: Content | null;
  /** Permission bits to write with; undefined keeps the file's own. */
  nextMode?: number;
  /** Size and modification time when the plan read the file, to notice a change before writing. */
  seen?: { size: number; mtimeMs: number };
  /** Set by a successful commit: the bytes written, null when deleted, undefined when unchanged. */
  written?: Uint8Array | null;
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
  /** Hunks matched only with whitespace or punctuation tolerance. */
  tolerant: number;
}

export type Resolved = { ok: true; abs: string; display: string } | { ok: false; error: PatchError };

export async function resolvePatchPath(
  fs: FileSystem,
  cwd: string,
  p: string,
  options: Pick<PatchPlanOptions, "ownDirs" | "access">,
): Promise<Resolved> {
  const where = await resolveInCwd(fs, cwd, p, { forbidNewline: true, write: { ownDirs: options.ownDirs }, ...options.access });
  if (!where.ok) {
    // A hidden file is as absent as a missing one (and its lines are never offered as candidates).
    const kind = isHiddenRefusal(where.error) ? "file_not_found" : "path_outside_cwd";
    return { ok: false, error: { kind, message: where.error.replace(/^ERROR: /, ""), path: p } };
  }
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

  private decode(bytes: Uint8Array, abs: string): Content {
    if (!this.options.chordEncodings) {
      const d = decodeTextKeepingEndings(bytes);
      return d ? { ...d, raw: bytes } : { text: "", bom: false, crlf: false, binary: true, raw: bytes };
    }
    const d = decodeForChordEdit(bytes, { keepEndings: true, file: abs });
    if (d.ok) return { text: d.text, bom: d.bom, crlf: false, encoding: d.encoding, raw: bytes };
    return { text: "", bom: false, crlf: false, binary: true, why: undecodableReason(d), raw: bytes };
  }

  private async state(abs: string, display: string, shown: string): Promise<FileState | PatchError> {
    const known = this.files.get(abs);
    if (known) return known;
    let original: Uint8Array | undefined;
    let mode: number | undefined;
    let seen: FileState["seen"];
    let next: Content | null = null;
    try {
      const st = await this.fs.stat(abs);
      if (st.isDirectory()) return { kind: "read_failed", message: `${shown} is a directory`, path: shown };
      if (tooLarge(st.size)) {
        const message = `${shown} is too large to patch ${sizeAndLimit(st.size)}; change it with a shell command (sed, or a script that streams it) instead`;
        return { kind: "read_failed", message, path: shown };
      }
      mode = st.mode & 0o7777;
      seen = { size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      original = undefined;
    }
    if (mode !== undefined) {
      try {
        original = await readChecked(this.fs, abs);
      } catch (err) {
        return { kind: "read_failed", message: `cannot read ${shown}: ${(err as Error).message}`, path: shown };
      }
      // Undecodable files are only an error when a hunk must read them.
      next = this.decode(original, abs);
    }
    const s: FileState = { abs, display, original, mode, next, seen };
    this.files.set(abs, s);
    return s;
  }

  private async resolve(p: string): Promise<Resolved> {
    return resolvePatchPath(this.fs, this.cwd, p, this.options);
  }

  private async notFound(p: string, what: string): Promise<PatchError> {
    const hint = await (this.options.chord ? didYouMeanList : didYouMean)(this.fs, this.cwd, p);
    // Chord names the source it could not read, whether it never existed or an
    // earlier operation of the patch moved or deleted it; its listing of failed
    // file groups shows only the part after the path.
    const head = this.options.chord ? `${CHORD_MISSING_SOURCE} ${p}` : what;
    return { kind: "file_not_found", message: `${head}: file not found: ${p}${hint}`, path: p };
  }

  /** Checks one op and records its effect; an error leaves the plan unusable. */
  async check(op: PatchOp): Promise<PatchError | undefined> {
    const where = await this.resolve(op.path);
    if (!where.ok) return where.error;
    // Messages name the file as the project sees it (an absolute path inside it is shown relative).
    const shown = where.display;
    const s = await this.state(where.abs, where.display, shown);
    if ("kind" in s) return s.kind === "read_failed" && op.kind === "add" ? { ...s, kind: "file_exists" } : s;
    const summary: OpSummary = { op, display: where.display, lines: 0, hunks: 0, removed: 0, added: 0, tolerant: 0 };
    if (op.kind === "add") {
      if (s.next !== null) {
        const message = this.options.chord
          ? `cannot add file that already exists: ${shown}; use Update File to change it`
          : this.options.unifiedDiff
            ? `cannot add ${shown}: file already exists; diff it against the file (--- a/${shown}) to change it`
            : `Add File: ${shown} already exists; use Update File to change it`;
        return { kind: "file_exists", message, path: shown };
      }
      if (this.options.unifiedDiff) {
        const blocked = await this.fileParent(where.abs);
        if (blocked !== undefined) {
          const message = `cannot add ${shown}: ${blocked} is a file, not a directory; no file was changed`;
          return { kind: "parent_not_directory", message, path: shown };
        }
      }
      const body = op.lines.join("\n");
      s.next = { text: op.lines.length ? body + (op.noFinalNewline ? "" : "\n") : "", bom: false, crlf: false };
      // Re-created where a file was deleted or moved away: a new file's mode, not the old one's.
      s.nextMode = s.original !== undefined ? FRESH_MODE : undefined;
      this.summaries.push({ ...summary, lines: op.lines.length });
      return undefined;
    }
    if (s.next === null) {
      if (this.options.unifiedDiff) {
        const hint = await didYouMean(this.fs, this.cwd, shown);
        // Creating is the way forward only for an update; a delete of a missing file has nothing to do.
        const next = op.kind === "delete" ? "; there is nothing to delete" : "; a new file's diff starts with --- /dev/null";
        return { kind: "file_not_found", message: `cannot ${op.kind === "delete" ? "delete" : "update"} ${shown}: file does not exist${hint}${next}`, path: shown };
      }
      return this.notFound(shown, op.kind === "delete" ? "Delete File" : "Update File");
    }
    if (op.kind === "delete") {
      if (op.removes !== undefined) {
        const err = this.checkRemovesAll(s.next, op.removes, shown);
        if (err) return err;
      }
      s.next = null;
      this.summaries.push(summary);
      return undefined;
    }
    let content: Content = s.next;
    if (op.hunks.length > 0) {
      if (s.next.binary) {
        const kind = this.options.unifiedDiff ? "binary_file" : "read_failed";
        return { kind, message: `cannot update ${shown}: ${s.next.why ?? "file is not valid UTF-8 text"}`, path: shown };
      }
      const applied = applyHunks(s.next.text, op.hunks, shown, { chord: this.options.chord, finalNewline: !this.options.unifiedDiff, unifiedDiff: this.options.unifiedDiff });
      if (!applied.ok) return { kind: applied.kind, message: applied.message, path: shown };
      const { raw: _unchanged, ...rest } = s.next;
      content = { ...rest, text: applied.text };
      Object.assign(summary, { hunks: applied.hunks, removed: applied.removed, added: applied.added, tolerant: applied.tolerant });
    }
    if (op.moveTo !== undefined && op.moveTo !== op.path) {
      const dest = await this.resolve(op.moveTo);
      if (!dest.ok) return dest.error;
      const d = await this.state(dest.abs, dest.display, op.moveTo);
      if ("kind" in d) return { ...d, kind: "file_exists" };
      if (d !== s) {
        // Onto an existing file: it is replaced. The moved file keeps its own mode.
        d.next = content;
        d.nextMode = s.nextMode ?? s.mode;
        s.next = null;
        s.nextMode = undefined;
        summary.moveDisplay = dest.display;
        this.summaries.push(summary);
        return undefined;
      }
    }
    s.next = content;
    this.summaries.push(summary);
    return undefined;
  }

  /**
   * The nearest folder above `abs` that is (or, by this plan, will be) a file,
   * named relative to the project: the add would fail at the write, after
   * other files of the patch were written.
   */
  private async fileParent(abs: string): Promise<string | undefined> {
    for (let dir = path.dirname(abs); dir.startsWith(this.cwd + path.sep); dir = path.dirname(dir)) {
      const planned = this.files.get(dir);
      if (planned) {
        if (planned.next !== null) return path.relative(this.cwd, dir);
        continue;
      }
      try {
        if (!(await this.fs.stat(dir)).isDirectory()) return path.relative(this.cwd, dir);
      } catch {
        // Missing: created at the write.
      }
    }
    return undefined;
  }

  /** `+++ /dev/null` deletes a file only when its hunks remove every line of it. */
  private checkRemovesAll(content: Content, removes: readonly string[], shown: string): PatchError | undefined {
    const have = content.binary ? undefined : splitKeepingEndings(content.text).lines;
    const same = have !== undefined && have.length === removes.length && have.every((l, i) => l === removes[i] || normaliseLine(l) === normaliseLine(removes[i]!));
    if (same) return undefined;
    const count = have === undefined ? "" : ` (it has ${have.length} line${have.length === 1 ? "" : "s"}; the hunks remove ${removes.length})`;
    return {
      kind: "delete_not_empty",
      message: `+++ /dev/null would delete ${shown}, but the hunks do not remove all of it${count}; the file is not empty afterwards. Use '+++ b/${shown}' to remove only those lines`,
      path: shown,
    };
  }
}
