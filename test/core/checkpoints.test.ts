// Workspace checkpoints on real git repositories: a checkpoint is a commit
// on a private ref built through a temporary index (the user's index, HEAD
// and branch stay as they were; untracked files are in it, ignored ones
// not); an unchanged tree makes no new commit; restoring writes modes and
// binary bytes back exactly; finished sessions' refs are pruned after the
// configured age, others kept.

import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointer } from "../../core/checkpoints/recorder.js";
import { openRepo, restoreTree, writeWorkTree, type Repo } from "../../core/checkpoints/git-tree.js";
import { pruneCheckpoints } from "../../core/checkpoints/prune.js";
import type { CoreEvent } from "../../core/events.js";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

function repo(): string {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-cp-"));
  writeFileSync(join(cwd, "tracked.txt"), "tracked\n");
  writeFileSync(join(cwd, ".gitignore"), "secret.env\n");
  git(cwd, "init", "-q", "-b", "trunk");
  git(cwd, "add", "-A");
  git(cwd, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "start");
  return cwd;
}

const event = (type: string, extra: Record<string, unknown> = {}) => ({ type, seq: 0, ts: new Date().toISOString(), sessionId: "s", agentId: "main", ...extra }) as unknown as CoreEvent;

async function gitRepo(cwd: string): Promise<Repo> {
  const r = await openRepo(cwd);
  if ("none" in r) throw new Error(r.none);
  return r;
}

describe("workspace checkpoints", () => {
  it("commit the work tree on a private ref, untracked files in, ignored out, the user's index and HEAD untouched", async () => {
    const cwd = repo();
    writeFileSync(join(cwd, "tracked.txt"), "changed, not staged\n");
    writeFileSync(join(cwd, "new.txt"), "untracked\n");
    writeFileSync(join(cwd, "secret.env"), "TOKEN=1\n");
    const index = readFileSync(join(cwd, ".git/index"));
    const head = git(cwd, "rev-parse", "HEAD");
    const sessionDir = mkdtempSync(join(tmpdir(), "yuj-cp-session-"));
    const cps = createCheckpointer({ cwd, sessionId: "20261201-000000-abcdef", sessionDir, emit: () => event("notice"), enabled: true });
    cps.observe(event("user_message", { text: "go" }));
    await cps.beforeStep();
    await cps.beforeStep();
    await cps.settled();
    const rows = cps.store.checkpoints();
    expect(rows).toHaveLength(3);
    // Unchanged: the same commit again, no new ref.
    expect(new Set(rows.map((r) => r.commit)).size).toBe(1);
    expect(git(cwd, "for-each-ref", "--format=%(refname)", "refs/yuj/").trim()).toBe("refs/yuj/20261201-000000-abcdef/1");
    const files = git(cwd, "ls-tree", "-r", "--name-only", rows[0]!.commit).trim().split("\n");
    expect(files).toEqual([".gitignore", "new.txt", "tracked.txt"]);
    expect(git(cwd, "show", `${rows[0]!.commit}:tracked.txt`)).toBe("changed, not staged\n");
    expect(readFileSync(join(cwd, ".git/index"))).toEqual(index);
    expect(git(cwd, "rev-parse", "HEAD")).toBe(head);
    expect(git(cwd, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/trunk");
    expect(git(cwd, "status", "--porcelain")).toBe(" M tracked.txt\n?? new.txt\n");
    expect(readFileSync(join(sessionDir, "checkpoints.jsonl"), "utf8").trim().split("\n")).toHaveLength(4);
  });

  it("restore binary files, modes, deletions and new directories exactly, and leave ignored files alone", async () => {
    const cwd = repo();
    const r = await gitRepo(cwd);
    const bytes = Buffer.from([0, 255, 13, 10, 0, 128, 7]);
    writeFileSync(join(cwd, "bin.dat"), bytes);
    writeFileSync(join(cwd, "run.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(join(cwd, "run.sh"), 0o755);
    const before = await writeWorkTree(r);
    writeFileSync(join(cwd, "bin.dat"), Buffer.from([1, 2, 3]));
    chmodSync(join(cwd, "run.sh"), 0o644);
    mkdirSync(join(cwd, "new/deeper"), { recursive: true });
    writeFileSync(join(cwd, "new/deeper/file.txt"), "made later\n");
    execFileSync("rm", [join(cwd, "tracked.txt")]);
    writeFileSync(join(cwd, "secret.env"), "ignored, written later\n");
    const after = await writeWorkTree(r);
    const changes = await restoreTree(r, after, before);
    expect(changes.map((c) => `${c.change} ${c.path}`).sort()).toEqual(["created tracked.txt", "deleted new/deeper/file.txt", "modified bin.dat", "modified run.sh"]);
    expect(readFileSync(join(cwd, "bin.dat"))).toEqual(bytes);
    expect(statSync(join(cwd, "run.sh")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(cwd, "tracked.txt"), "utf8")).toBe("tracked\n");
    expect(existsSync(join(cwd, "new"))).toBe(false);
    expect(readFileSync(join(cwd, "secret.env"), "utf8")).toBe("ignored, written later\n");
  });

  it("are pruned for finished sessions past the age, kept for paused and recent ones", async () => {
    const cwd = repo();
    const r = await gitRepo(cwd);
    const sessions = mkdtempSync(join(tmpdir(), "yuj-cp-sessions-"));
    const old = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const meta = (id: string, status: string, updatedAt: string) => {
      mkdirSync(join(sessions, id));
      writeFileSync(join(sessions, id, "session.json"), JSON.stringify({ version: 2, id, cwd, status, title: "t", createdAt: updatedAt, updatedAt }));
    };
    meta("20261101-000000-aaaaaa", "done", old);
    meta("20261101-000000-bbbbbb", "paused", old);
    meta("20261101-000000-cccccc", "failed", new Date().toISOString());
    const tree = await writeWorkTree(r);
    for (const id of ["20261101-000000-aaaaaa", "20261101-000000-bbbbbb", "20261101-000000-cccccc"]) {
      const commit = git(cwd, "commit-tree", tree, "-m", "cp").trim();
      git(cwd, "update-ref", `refs/yuj/${id}/1`, commit);
    }
    const pruned = await pruneCheckpoints({ cwd, sessionsDir: sessions, maxAgeDays: 7 });
    expect(pruned).toEqual(["20261101-000000-aaaaaa"]);
    expect(git(cwd, "for-each-ref", "--format=%(refname)", "refs/yuj/").trim().split("\n")).toEqual(["refs/yuj/20261101-000000-bbbbbb/1", "refs/yuj/20261101-000000-cccccc/1"]);
  });

  it("are off outside a git work tree, said once at the first step that may change files", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "yuj-cp-nogit-"));
    const notices: string[] = [];
    const emit = (body: { type: string; text?: string }) => {
      if (body.type === "notice") notices.push(body.text ?? "");
      return event(body.type);
    };
    const cps = createCheckpointer({ cwd, sessionId: "20261201-000000-abcdef", sessionDir: cwd, emit: emit as never, enabled: true });
    cps.observe(event("user_message", { text: "go" }));
    await cps.beforeStep();
    await cps.beforeStep();
    await cps.settled();
    expect(notices).toEqual([`Workspace checkpoints are off: ${cwd} is not inside a git work tree. A rewind restores the conversation only.`]);
    expect(cps.store.off()).toContain("not inside a git work tree");
  });
});
