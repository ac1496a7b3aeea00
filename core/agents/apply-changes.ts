// Applying an isolated child's patch to the parent's files, all of it or
// none. Refused when any file it touches is not what it was when the child
// started (content, mode, or whether it exists): the patch was made against
// that state, and applying it over other work would mix the two. The
// current state is hashed the way the start was, by staging the touched
// paths into a temporary copy of the index, so the user's index is never
// touched and git's own rules (line endings, modes, links) decide both.

import { existsSync, lstatSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { copyIndexKeepingTime, gitRunner, type GitRunner } from "../git.js";
import { NO_BLOB, saveChanges, type ChangeSet } from "./changes.js";

const GIT_TIMEOUT_MS = 120_000;

/** The files the patch touches that changed in the parent since the child started. */
export async function staleFiles(set: ChangeSet, git: GitRunner = gitRunner()): Promise<string[]> {
  const now = await currentEntries(set.repo, set.files.map((f) => f.path), git);
  return set.files
    .filter((f) => {
      const cur = now.get(f.path);
      if (f.oldOid === NO_BLOB) return cur !== undefined;
      return cur === undefined || cur.mode !== f.oldMode || cur.oid !== f.oldOid;
    })
    .map((f) => f.path);
}

/** Mode and blob of each path as `git add` would record it now; absent when the file does not exist. */
async function currentEntries(repo: string, paths: string[], git: GitRunner): Promise<Map<string, { mode: string; oid: string }>> {
  const scratch = mkdtempSync(join(tmpdir(), "yuj-apply-"));
  try {
    let index = (await git(["rev-parse", "--git-path", "index"], { cwd: repo, timeoutMs: GIT_TIMEOUT_MS })).trim();
    if (!isAbsolute(index)) index = resolve(repo, index);
    const tempIndex = join(scratch, "index");
    copyIndexKeepingTime(index, tempIndex);
    // Paths are names, never patterns: a file called `*.txt` is that file.
    const env = { ...process.env, GIT_INDEX_FILE: tempIndex, GIT_LITERAL_PATHSPECS: "1" };
    const run = (args: string[]) => git(args, { cwd: repo, env, timeoutMs: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    const present = paths.filter((p) => exists(join(repo, p)));
    const gone = paths.filter((p) => !present.includes(p));
    if (gone.length > 0) await run(["rm", "--cached", "-q", "--ignore-unmatch", "-r", "--", ...gone]);
    // -f: an ignored file that exists now still counts as being there.
    if (present.length > 0) await run(["add", "-f", "-A", "--", ...present]);
    const listed = await run(["ls-files", "-s", "-z", "--", ...paths]);
    const out = new Map<string, { mode: string; oid: string }>();
    for (const rec of listed.split("\0")) {
      const m = /^(\d{6}) ([0-9a-f]+) \d\t(.*)$/s.exec(rec);
      if (m) out.set(m[3]!, { mode: m[1]!, oid: m[2]! });
    }
    return out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Applies the saved patch in `taskDir` to the parent's files; the text says what happened. */
export async function applyChanges(set: ChangeSet, taskDir: string, git: GitRunner = gitRunner()): Promise<{ ok: boolean; text: string }> {
  const id = set.task_id;
  if (set.applied) return { ok: false, text: `apply_subagent refused: isolated change set ${id} was already applied` };
  if (set.files.length === 0) return { ok: false, text: `apply_subagent refused: task ${id} changed no files; there is nothing to apply` };
  if (set.tooLarge || !set.patch) return { ok: false, text: `apply_subagent refused: isolated change set ${id} is not ready: its patch (${set.bytes} bytes) was too large to keep; nothing can be applied` };
  if (!existsSync(set.repo)) return { ok: false, text: `apply_subagent refused: the repository ${set.repo} the task started from is gone` };
  const stale = await staleFiles(set, git);
  if (stale.length > 0) {
    return {
      ok: false,
      text: `apply_subagent refused: stale parent state: ${stale.length} file${stale.length === 1 ? "" : "s"} the patch touches changed since task ${id} started: ${stale.join(", ")}. Nothing was applied. Read the patch with subagent_changes and make the changes yourself, or run the task again.`,
    };
  }
  const patch = join(taskDir, set.patch);
  const apply = (check: boolean) =>
    git(["apply", ...(check ? ["--check"] : []), "--whitespace=nowarn", "--", patch], { cwd: set.repo, timeoutMs: GIT_TIMEOUT_MS });
  try {
    // git checks every hunk before it writes anything; the separate check keeps a refusal's words clear.
    await apply(true);
    await apply(false);
  } catch (err) {
    return { ok: false, text: `apply_subagent failed: ${(err as Error).message}; nothing was applied` };
  }
  saveChanges(taskDir, { ...set, applied: true });
  const names = set.files.map((f) => f.path);
  // The reference's words: "OK: applied isolated change set ID".
  return { ok: true, text: `OK: applied isolated change set ${id}: ${names.length} file${names.length === 1 ? "" : "s"} (${names.join(", ")})` };
}
