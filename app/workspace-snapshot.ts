// The files a session started from, kept as a git tree object so that
// `yuj replay` can run the session again on the same input.
//
// The snapshot is taken through a temporary copy of the index: `git add -A`
// and `git write-tree` run against that copy, so the user's index, HEAD and
// working tree are never touched. The only lasting effect is loose objects in
// the repository's object store (the blobs of changed and untracked files),
// which git's own gc prunes once nothing refers to them.
//
// Extraction clones the repository with --shared (the clone borrows the
// source's objects instead of copying them; the source is only read) and
// writes the tree into the clone's working tree, with HEAD at the recorded
// commit and the index at HEAD, so `git status` and `git diff` in the replay
// show the changes the session started with (all of them unstaged).

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { EventOf } from "../core/events.js";
import { copyIndexKeepingTime, gitRunner, mayBeInRepository } from "../core/git.js";

export type WorkspaceSnapshot = Omit<EventOf<"workspace_snapshot">, "seq" | "ts" | "sessionId" | "agentId" | "turn">;

// Bounds a hung git (a lock held by another process, say) so a session start
// never waits forever; the snapshot is then recorded as unavailable.
const GIT_TIMEOUT_MS = 60_000;

// Through core/git: the repository's hooks, fsmonitor and filters never run.
function gitFor(): (args: string[], cwd: string, env?: NodeJS.ProcessEnv) => Promise<string> {
  const run = gitRunner();
  return (args, cwd, env) => run(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, ...(env ? { env } : {}) });
}

/** Snapshots `cwd`'s work tree; never throws (a failure is the unavailable form). */
export async function snapshotWorkspace(cwd: string): Promise<WorkspaceSnapshot> {
  const git = gitFor();
  let root: string;
  if (!mayBeInRepository(cwd)) return { type: "workspace_snapshot", unavailable: `${cwd} is not inside a git work tree` };
  try {
    const inside = (await git(["rev-parse", "--is-inside-work-tree"], cwd)).trim();
    if (inside !== "true") return { type: "workspace_snapshot", unavailable: `${cwd} is not inside a git work tree` };
    root = (await git(["rev-parse", "--show-toplevel"], cwd)).trim();
  } catch {
    return { type: "workspace_snapshot", unavailable: `${cwd} is not inside a git work tree` };
  }
  const temp = mkdtempSync(join(tmpdir(), "yuj-snapshot-"));
  try {
    const prefix = (await git(["rev-parse", "--show-prefix"], cwd)).trim().replace(/\/$/, "");
    let indexPath = (await git(["rev-parse", "--git-path", "index"], root)).trim();
    if (!isAbsolute(indexPath)) indexPath = resolve(root, indexPath);
    const tempIndex = join(temp, "index");
    // Starting from the real index keeps git's stat cache, so unchanged files are not re-hashed.
    copyIndexKeepingTime(indexPath, tempIndex);
    const env = { ...process.env, GIT_INDEX_FILE: tempIndex };
    await git(["add", "-A", "--", "."], root, env);
    const tree = (await git(["write-tree"], root, env)).trim();
    let head: string | undefined;
    let headTree: string | undefined;
    try {
      head = (await git(["rev-parse", "--verify", "-q", "HEAD^{commit}"], root)).trim();
      headTree = (await git(["rev-parse", "HEAD^{tree}"], root)).trim();
    } catch {
      // A repository without commits yet: the tree alone describes it.
    }
    return { type: "workspace_snapshot", tree, ...(head ? { head } : {}), dirty: tree !== headTree, prefix, repo: root };
  } catch (err) {
    return { type: "workspace_snapshot", unavailable: `the work tree could not be snapshotted: ${(err as Error).message}` };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * Writes the snapshot into a new directory (a --shared clone of `repo`) and
 * returns the session's working directory inside it. Throws with what is
 * wrong when the repository or its objects are gone.
 */
export async function extractSnapshot(snapshot: WorkspaceSnapshot, into: string): Promise<string> {
  const { tree, repo } = snapshot;
  const git = gitFor();
  if (!tree || !repo) throw new Error(`the session has no workspace snapshot${snapshot.unavailable ? ` (${snapshot.unavailable})` : ""}`);
  if (!existsSync(repo)) throw new Error(`the repository the snapshot lives in, ${repo}, is gone`);
  try {
    await git(["cat-file", "-e", `${tree}^{tree}`], repo);
  } catch {
    throw new Error(`the snapshot tree ${tree} is not in ${repo} any more (pruned, or the repository was replaced)`);
  }
  // No template: the clone gets no hooks copied in.
  await git(["clone", "-q", "--shared", "--no-checkout", "--template=", repo, into], tmpdir());
  if (snapshot.head) await git(["reset", "-q", "--soft", snapshot.head], into);
  await git(["read-tree", "-u", "--reset", tree], into);
  await git(["read-tree", ...(snapshot.head ? [snapshot.head] : ["--empty"])], into);
  return snapshot.prefix ? join(into, snapshot.prefix) : into;
}
