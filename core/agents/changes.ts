// What an isolated child changed: a binary git patch of its worktree against
// the state it started from (adds, deletes, modes and binary files
// included), saved beside its trace as `changes.patch`, with `changes.json`
// listing each file and what it was when the child started, which is what
// applying it later is checked against.
//
// The worktree's files are staged into a temporary copy of its index, so
// untracked files count and ignored ones do not, exactly as the snapshot
// counted them; renames are not detected, so every path the patch touches
// is named as the add or delete it is.

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { atomicWriteSync } from "../atomic-write.js";
import { copyIndexKeepingTime, gitRunner, type GitRunner } from "../git.js";
import type { Worktree } from "./worktree.js";

/** A patch larger than this is not kept: nobody can review it a page at a time. */
const MAX_PATCH_BYTES = 16 * 1024 * 1024;
const LISTED_FILES = 40;
const GIT_TIMEOUT_MS = 120_000;

export interface ChangedFile {
  /** Relative to the repository's top level. */
  path: string;
  /** A added, M modified (content or mode), D deleted, T type changed (file, link). */
  status: "A" | "M" | "D" | "T";
  oldMode: string;
  newMode: string;
  /** The blob the file had when the child started (zeros when it did not exist). */
  oldOid: string;
  binary: boolean;
  added: number;
  deleted: number;
}

export interface ChangeSet {
  task_id: string;
  repo: string;
  prefix: string;
  base: string;
  files: ChangedFile[];
  /** The patch file's name beside this record; absent when there is nothing to apply or it was too large. */
  patch?: string;
  bytes: number;
  lines: number;
  tooLarge: boolean;
  applied: boolean;
}

const CHANGES_FILE = "changes.json";
const PATCH_FILE = "changes.patch";
export const NO_BLOB = "0".repeat(40);

/** Diffs the worktree against its starting commit and saves the patch and its record in `taskDir`. */
export async function collectChanges(wt: Worktree, taskId: string, taskDir: string, git: GitRunner = gitRunner()): Promise<ChangeSet> {
  const scratch = mkdtempSync(join(tmpdir(), "yuj-changes-"));
  try {
    let index = (await git(["rev-parse", "--git-path", "index"], { cwd: wt.dir, timeoutMs: GIT_TIMEOUT_MS })).trim();
    if (!isAbsolute(index)) index = resolve(wt.dir, index);
    const tempIndex = join(scratch, "index");
    copyIndexKeepingTime(index, tempIndex);
    const env = { ...process.env, GIT_INDEX_FILE: tempIndex };
    const run = (args: string[]) => git(args, { cwd: wt.dir, env, timeoutMs: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    await run(["add", "-A", "--", "."]);
    const diff = ["diff", "--cached", "--no-renames", "--no-color", "--no-relative"];
    const raw = await run([...diff, "--raw", "--no-abbrev", "-z", wt.base]);
    const numstat = await run([...diff, "--numstat", "-z", wt.base]);
    const files = parseRaw(raw, parseNumstat(numstat));
    const patchPath = join(taskDir, PATCH_FILE);
    if (files.length > 0) await run([...diff, "--binary", "--full-index", "--src-prefix=a/", "--dst-prefix=b/", `--output=${patchPath}`, wt.base]);
    const bytes = files.length > 0 ? statSync(patchPath).size : 0;
    const tooLarge = bytes > MAX_PATCH_BYTES;
    if (tooLarge || files.length === 0) rmSync(patchPath, { force: true });
    const lines = files.length > 0 && !tooLarge ? countLines(readFileSync(patchPath)) : 0;
    const set: ChangeSet = {
      task_id: taskId,
      repo: wt.repo,
      prefix: wt.prefix,
      base: wt.base,
      files,
      ...(files.length > 0 && !tooLarge ? { patch: PATCH_FILE } : {}),
      bytes,
      lines,
      tooLarge,
      applied: false,
    };
    saveChanges(taskDir, set);
    return set;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function saveChanges(taskDir: string, set: ChangeSet): void {
  atomicWriteSync(join(taskDir, CHANGES_FILE), JSON.stringify(set, null, 1));
}

function countLines(buf: Buffer): number {
  let n = 0;
  for (const b of buf) if (b === 10) n++;
  return buf.length > 0 && buf[buf.length - 1] !== 10 ? n + 1 : n;
}

/** `:old new oldOid newOid status\0path\0` records. */
function parseRaw(raw: string, stats: Map<string, { added: number; deleted: number; binary: boolean }>): ChangedFile[] {
  const parts = raw.split("\0");
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([AMDT])/.exec(parts[i]!);
    if (!m) continue;
    const path = parts[i + 1]!;
    const stat = stats.get(path) ?? { added: 0, deleted: 0, binary: false };
    files.push({ path, status: m[5] as ChangedFile["status"], oldMode: m[1]!, newMode: m[2]!, oldOid: m[3]!, ...stat });
  }
  return files;
}

/** `added\tdeleted\tpath\0` records; a binary file counts `-` for both. */
function parseNumstat(text: string): Map<string, { added: number; deleted: number; binary: boolean }> {
  const out = new Map<string, { added: number; deleted: number; binary: boolean }>();
  for (const rec of text.split("\0")) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec.replace(/^\n/, ""));
    if (!m) continue;
    const binary = m[1] === "-";
    out.set(m[3]!, { added: binary ? 0 : Number(m[1]), deleted: binary ? 0 : Number(m[2]), binary });
  }
  return out;
}

/** The task's saved changes; an error names what is missing. */
export function loadChanges(sessionDir: string, taskId: string): { set: ChangeSet; dir: string } | { error: string } {
  if (!/^task-\d+$/.test(taskId)) return { error: `"${taskId}" is not a task_id; the task result names it, e.g. task-1` };
  const dir = join(sessionDir, "tasks", taskId);
  if (!existsSync(dir)) return { error: `no task ${taskId} in this session; the task result names its task_id` };
  const file = join(dir, CHANGES_FILE);
  if (!existsSync(file)) return { error: noPatchReason(taskId, dir) };
  try {
    return { set: JSON.parse(readFileSync(file, "utf8")) as ChangeSet, dir };
  } catch (err) {
    return { error: `the change record of ${taskId}, ${file}, cannot be read: ${(err as Error).message}` };
  }
}

/** Why a task has no patch: only an isolated child leaves one; a read-only child changed nothing, a shared one changed your files. */
function noPatchReason(taskId: string, dir: string): string {
  let child: { agent?: string; read_only?: boolean; workspace?: string } = {};
  try {
    child = JSON.parse(readFileSync(join(dir, "history.json"), "utf8"));
  } catch {
    // A child killed before its first step saved nothing: the shared-workspace reason stands.
  }
  const agent = child.agent ? `agent ${child.agent}` : "its agent";
  if (child.read_only) {
    return `${taskId} has no patch: ${agent} is read-only, so it changed no files; only an isolated child (read_only = false, workspace = "isolated") leaves a patch to read or apply`;
  }
  return `${taskId} has no patch: ${agent} ran in the shared workspace, so whatever it changed is already in your files; only an isolated child (workspace = "isolated") leaves a patch to read or apply`;
}

/** The lines the task result shows: what changed, and how to read and apply it. */
export function describeChanges(set: ChangeSet): string {
  const id = set.task_id;
  if (set.files.length === 0) return "changes: none (the child changed no files)";
  const added = set.files.reduce((n, f) => n + f.added, 0);
  const deleted = set.files.reduce((n, f) => n + f.deleted, 0);
  const lines = [`changes: ${set.files.length} file${set.files.length === 1 ? "" : "s"} (+${added} -${deleted})`];
  for (const f of set.files.slice(0, LISTED_FILES)) lines.push(`  ${fileLine(f)}`);
  if (set.files.length > LISTED_FILES) lines.push(`  … and ${set.files.length - LISTED_FILES} more (the patch names them all)`);
  if (set.tooLarge) {
    lines.push(`Isolated change set ${id}: too_large.`);
    lines.push(`patch: ${set.bytes} bytes, over the ${MAX_PATCH_BYTES}-byte limit: not kept, and it cannot be applied; give the child a smaller job`);
    return lines.join("\n");
  }
  lines.push(`Isolated change set ${id}: ready.`);
  lines.push(`patch: ${set.lines} lines, ${set.bytes} bytes; nothing is in your files yet.`);
  lines.push(`Read it with subagent_changes(task_id="${id}", offset=0, limit=200); apply all of it with apply_subagent(task_id="${id}").`);
  return lines.join("\n");
}

function fileLine(f: ChangedFile): string {
  const what = { A: "added", M: "modified", D: "deleted", T: "type changed" }[f.status];
  const detail: string[] = [];
  if (f.binary) detail.push("binary");
  else if (f.status !== "D" || f.deleted > 0) detail.push(`+${f.added} -${f.deleted}`);
  if (f.status === "M" && f.oldMode !== f.newMode) detail.push(`mode ${f.oldMode} -> ${f.newMode}`);
  if (f.status === "A" && f.newMode === "100755") detail.push("executable");
  return `${what} ${f.path} (${detail.join(", ")})`;
}
