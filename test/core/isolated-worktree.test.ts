// The isolated workspace's git machinery on real repositories: the worktree
// starts from HEAD plus uncommitted and untracked (not ignored) files without
// touching the user's index, HEAD or branch; the patch carries adds,
// deletes, a binary file and a mode change; applying it is refused when a
// touched file changed since the start, and is all or nothing; leftovers of
// a dead yuj are swept.

import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyChanges, staleFiles } from "../../core/agents/apply-changes.js";
import { collectChanges, describeChanges } from "../../core/agents/changes.js";
import { openWorktree, removeWorktree, sweepLeftoverWorktrees, worktreeRecords, type Worktree } from "../../core/agents/worktree.js";

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0x00, 0x7f]);
const made: string[] = [];

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
}

function tempDir(prefix: string): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(d);
  return d;
}

/** A repository with a commit, a staged change, an unstaged change, an untracked file and an ignored one. */
function repo(): string {
  const r = tempDir("yuj-iso-repo-");
  git(r, "init", "-q", "-b", "main");
  writeFileSync(join(r, ".gitignore"), "ignored/\n");
  writeFileSync(join(r, "a.txt"), "one\n");
  writeFileSync(join(r, "run.sh"), "echo hi\n");
  writeFileSync(join(r, "old.txt"), "to be deleted\n");
  writeFileSync(join(r, "staged.txt"), "v1\n");
  git(r, "add", "-A");
  git(r, "commit", "-q", "-m", "init");
  writeFileSync(join(r, "staged.txt"), "v2 staged\n");
  git(r, "add", "staged.txt");
  writeFileSync(join(r, "a.txt"), "one\ntwo (unstaged)\n");
  writeFileSync(join(r, "new.txt"), "untracked\n");
  mkdirSync(join(r, "ignored"));
  writeFileSync(join(r, "ignored", "secret.txt"), "ignored\n");
  return r;
}

const userState = (r: string) => ({
  index: readFileSync(join(r, ".git", "index")),
  head: git(r, "rev-parse", "HEAD"),
  branch: git(r, "symbolic-ref", "HEAD"),
  status: git(r, "status", "--porcelain"),
});

afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function open(r: string, state: string): Promise<Worktree> {
  const wt = await openWorktree(r, state);
  if ("error" in wt) throw new Error(wt.error);
  made.push(wt.holder);
  return wt;
}

/** In the worktree: a binary file added, run.sh made executable, old.txt deleted, a.txt changed. */
function childWork(wt: Worktree): void {
  writeFileSync(join(wt.dir, "logo.bin"), BINARY);
  chmodSync(join(wt.dir, "run.sh"), 0o755);
  rmSync(join(wt.dir, "old.txt"));
  writeFileSync(join(wt.dir, "a.txt"), "one\ntwo (unstaged)\nthree (child)\n");
}

describe("isolated worktree", () => {
  it("starts from HEAD plus staged, unstaged and untracked files, not ignored ones, and leaves the user's index, HEAD and branch alone", async () => {
    const r = repo();
    const before = userState(r);
    const wt = await open(r, tempDir("yuj-iso-state-"));
    expect(readFileSync(join(wt.dir, "a.txt"), "utf8")).toBe("one\ntwo (unstaged)\n");
    expect(readFileSync(join(wt.dir, "staged.txt"), "utf8")).toBe("v2 staged\n");
    expect(readFileSync(join(wt.dir, "new.txt"), "utf8")).toBe("untracked\n");
    expect(existsSync(join(wt.dir, "ignored", "secret.txt"))).toBe(false);
    expect(userState(r)).toEqual(before);
    expect(git(r, "worktree", "list")).toContain(wt.dir);
    await removeWorktree(wt);
    expect(existsSync(wt.holder)).toBe(false);
    expect(git(r, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(userState(r)).toEqual(before);
  });

  it("the patch carries a binary add, a mode change and a delete, and applies to the parent exactly", async () => {
    const r = repo();
    const wt = await open(r, tempDir("yuj-iso-state-"));
    childWork(wt);
    const taskDir = tempDir("yuj-iso-task-");
    const set = await collectChanges(wt, "task-1", taskDir);
    await removeWorktree(wt);
    const byPath = Object.fromEntries(set.files.map((f) => [f.path, f]));
    expect(byPath["logo.bin"]).toMatchObject({ status: "A", binary: true });
    expect(byPath["run.sh"]).toMatchObject({ status: "M", oldMode: "100644", newMode: "100755" });
    expect(byPath["old.txt"]).toMatchObject({ status: "D" });
    expect(byPath["a.txt"]).toMatchObject({ status: "M", added: 1, deleted: 0 });
    expect(Object.keys(byPath).sort()).toEqual(["a.txt", "logo.bin", "old.txt", "run.sh"]);
    const patch = readFileSync(join(taskDir, "changes.patch"), "utf8");
    expect(patch).toContain("GIT binary patch");
    expect(patch).toContain("new mode 100755");
    const text = describeChanges(set);
    expect(text).toContain("added logo.bin (binary)");
    expect(text).toContain("modified run.sh (+0 -0, mode 100644 -> 100755)");
    expect(text).toContain('apply_subagent(task_id="task-1")');
    // Nothing reached the parent before the apply.
    expect(existsSync(join(r, "logo.bin"))).toBe(false);
    const indexBefore = readFileSync(join(r, ".git", "index"));
    const applied = await applyChanges(set, taskDir);
    expect(applied.ok, applied.text).toBe(true);
    expect(readFileSync(join(r, "logo.bin"))).toEqual(BINARY);
    expect(statSync(join(r, "run.sh")).mode & 0o111).not.toBe(0);
    expect(existsSync(join(r, "old.txt"))).toBe(false);
    expect(readFileSync(join(r, "a.txt"), "utf8")).toBe("one\ntwo (unstaged)\nthree (child)\n");
    // The user's index is as it was: the applied changes are unstaged.
    expect(readFileSync(join(r, ".git", "index"))).toEqual(indexBefore);
    const again = await applyChanges(JSON.parse(readFileSync(join(taskDir, "changes.json"), "utf8")), taskDir);
    expect(again.text).toContain("already applied");
  });

  it("refuses when a touched file changed in the parent since the start, naming it, and applies nothing", async () => {
    const r = repo();
    const wt = await open(r, tempDir("yuj-iso-state-"));
    childWork(wt);
    const taskDir = tempDir("yuj-iso-task-");
    const set = await collectChanges(wt, "task-1", taskDir);
    await removeWorktree(wt);
    writeFileSync(join(r, "a.txt"), "the parent changed this meanwhile\n");
    writeFileSync(join(r, "logo.bin"), "the parent made this too\n");
    const before = { a: readFileSync(join(r, "a.txt"), "utf8"), run: statSync(join(r, "run.sh")).mode, old: existsSync(join(r, "old.txt")) };
    expect((await staleFiles(set)).sort()).toEqual(["a.txt", "logo.bin"]);
    const res = await applyChanges(set, taskDir);
    expect(res.ok).toBe(false);
    expect(res.text).toContain("changed since task task-1 started: a.txt, logo.bin");
    expect(res.text).toContain("Nothing was applied");
    expect({ a: readFileSync(join(r, "a.txt"), "utf8"), run: statSync(join(r, "run.sh")).mode, old: existsSync(join(r, "old.txt")) }).toEqual(before);
    // A mode change alone counts as a change too.
    writeFileSync(join(r, "a.txt"), "one\ntwo (unstaged)\n");
    rmSync(join(r, "logo.bin"));
    expect(await staleFiles(set)).toEqual([]);
    chmodSync(join(r, "old.txt"), 0o755);
    expect(await staleFiles(set)).toEqual(["old.txt"]);
  });

  it("a worktree whose yuj died is removed at the next sweep; a live yuj's is kept", async () => {
    const r = repo();
    const state = tempDir("yuj-iso-state-");
    const mine = await open(r, state);
    const dead = await open(r, state);
    // The second record now names a process that has ended.
    const gone = spawnSync("true");
    const file = dead.record;
    const entry = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...entry, yujPid: gone.pid, yujStartTime: 1 }));
    const removed = await sweepLeftoverWorktrees(state);
    expect(removed).toEqual([dead.dir]);
    expect(existsSync(dead.holder)).toBe(false);
    expect(existsSync(mine.dir)).toBe(true);
    expect(git(r, "worktree", "list")).not.toContain(dead.dir);
    expect(existsSync(join(worktreeRecords(state), `${dead.holder.split("/").pop()}.json`))).toBe(false);
    await removeWorktree(mine);
    expect(git(r, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("from a subdirectory, the child works in the same subdirectory of the worktree and the patch applies at the repository's top", async () => {
    const r = repo();
    mkdirSync(join(r, "sub"));
    writeFileSync(join(r, "sub", "in.txt"), "in\n");
    const wt = await open(join(r, "sub"), tempDir("yuj-iso-state-"));
    expect(wt.prefix).toBe("sub");
    expect(wt.cwd).toBe(join(wt.dir, "sub"));
    expect(readFileSync(join(wt.cwd, "in.txt"), "utf8")).toBe("in\n");
    writeFileSync(join(wt.cwd, "made.txt"), "made\n");
    const taskDir = tempDir("yuj-iso-task-");
    const set = await collectChanges(wt, "task-2", taskDir);
    await removeWorktree(wt);
    expect(set.files.map((f) => f.path)).toEqual(["sub/made.txt"]);
    expect((await applyChanges(set, taskDir)).ok).toBe(true);
    expect(readFileSync(join(r, "sub", "made.txt"), "utf8")).toBe("made\n");
  });

  it("a directory outside git is refused with what to do", async () => {
    const d = tempDir("yuj-iso-plain-");
    const res = await openWorktree(d, tempDir("yuj-iso-state-"));
    expect(res).toEqual({ error: expect.stringContaining("is not inside a git work tree") });
    expect((res as { error: string }).error).toContain('workspace = "shared"');
  });
});
