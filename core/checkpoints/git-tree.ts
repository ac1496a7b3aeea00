// The git plumbing of workspace checkpoints: the working tree written as a
// tree object and a commit on a private ref, and a tree written back into
// the working tree. Every call goes through core/git.ts (no hook, filter or
// external program of the repository runs).
//
// The user's index, HEAD and branch are never touched: the tree is built in
// a temporary index (GIT_INDEX_FILE), started from a copy of the real one so
// git's stat cache spares re-hashing unchanged files. `git add -A` takes
// untracked files and leaves ignored ones out, as a commit would; restoring
// changes only the paths that differ between two trees, so an ignored file
// is never written or removed.

import { lstatSync, mkdtempSync, readdirSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { copyIndexKeepingTime, gitRunner, mayBeInRepository, YUJ_COMMIT_IDENTITY, type GitRunner } from "../git.js";

// A hung git (another process holding a lock) must not hang the session.
const GIT_TIMEOUT_MS = 60_000;

export interface Repo {
  /** The work tree's top directory. */
  root: string;
  git(args: readonly string[], env?: NodeJS.ProcessEnv, input?: string): Promise<string>;
}

/** The repository whose work tree holds `cwd`, or why there is none. */
export async function openRepo(cwd: string, run: GitRunner = gitRunner()): Promise<Repo | { none: string }> {
  const at = (dir: string) => (args: readonly string[], env?: NodeJS.ProcessEnv, input?: string) =>
    run(args, { cwd: dir, timeoutMs: GIT_TIMEOUT_MS, ...(env ? { env } : {}), ...(input !== undefined ? { input } : {}) });
  if (!mayBeInRepository(cwd)) return { none: `${cwd} is not inside a git work tree` };
  try {
    const inside = (await at(cwd)(["rev-parse", "--is-inside-work-tree"])).trim();
    if (inside !== "true") return { none: `${cwd} is not inside a git work tree` };
    const root = (await at(cwd)(["rev-parse", "--show-toplevel"])).trim();
    return { root, git: at(root) };
  } catch {
    return { none: `${cwd} is not inside a git work tree` };
  }
}

/** Runs `fn` with the path of a temporary index file, removed afterwards. */
async function withTempIndex<T>(repo: Repo, seedFromRealIndex: boolean, fn: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const temp = mkdtempSync(join(tmpdir(), "yuj-checkpoint-"));
  try {
    const index = join(temp, "index");
    if (seedFromRealIndex) {
      let real = (await repo.git(["rev-parse", "--git-path", "index"])).trim();
      if (!isAbsolute(real)) real = resolve(repo.root, real);
      copyIndexKeepingTime(real, index);
    }
    return await fn({ ...process.env, GIT_INDEX_FILE: index });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The working tree as a tree object: tracked and untracked files, ignored ones left out. */
export async function writeWorkTree(repo: Repo): Promise<string> {
  return withTempIndex(repo, true, async (env) => {
    await repo.git(["add", "-A", "--", "."], env);
    return (await repo.git(["write-tree"], env)).trim();
  });
}

/** A commit of `tree` (on `parent` when given) kept alive by `ref`; returns the commit. */
export async function commitTree(repo: Repo, tree: string, ref: string, message: string, parent?: string): Promise<string> {
  const env = { ...process.env, ...YUJ_COMMIT_IDENTITY };
  const commit = (await repo.git(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], env)).trim();
  await repo.git(["update-ref", ref, commit]);
  return commit;
}

/** Whether the object still exists (a pruned checkpoint's does not). */
export async function hasObject(repo: Repo, name: string): Promise<boolean> {
  try {
    await repo.git(["cat-file", "-e", name]);
    return true;
  } catch {
    return false;
  }
}

type PathChange = "modified" | "created" | "deleted";

export interface ChangedPath {
  path: string;
  /** What writing `to` over `from` does to this path. */
  change: PathChange;
}

/** The paths that differ between two trees (from the work tree's top), gitlinks left out. */
export async function changedPaths(repo: Repo, from: string, to: string): Promise<ChangedPath[]> {
  if (from === to) return [];
  const out = await repo.git(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to]);
  const fields = out.split("\0");
  const changes: ChangedPath[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i]!.split(" ");
    const path = fields[i + 1]!;
    const status = meta[4]?.[0];
    // A submodule is a repository of its own: a checkpoint never rewrites it.
    if (meta[0] === ":160000" || meta[1] === "160000") continue;
    changes.push({ path, change: status === "A" ? "created" : status === "D" ? "deleted" : "modified" });
  }
  return changes;
}

/** The patch that turns tree `from` into tree `to`, for the operator to read. */
export async function treeDiff(repo: Repo, from: string, to: string): Promise<string> {
  if (from === to) return "";
  return repo.git(["diff", "--stat", "--patch", "--no-color", from, to]);
}

/**
 * Writes the paths that differ between `from` (the work tree as it is now)
 * and `to` into the work tree, byte for byte and with their modes: created
 * and modified files from `to`'s blobs, deleted ones removed (and the
 * directories they leave empty). Every other path is left as it is.
 */
export async function restoreTree(repo: Repo, from: string, to: string): Promise<ChangedPath[]> {
  const changes = await changedPaths(repo, from, to);
  for (const c of changes) if (c.change === "deleted") removeFile(repo.root, c.path);
  const written = changes.filter((c) => c.change !== "deleted").map((c) => c.path);
  if (written.length) {
    await withTempIndex(repo, false, async (env) => {
      await repo.git(["read-tree", to], env);
      await repo.git(["checkout-index", "-f", "-z", "--stdin"], env, written.map((p) => `${p}\0`).join(""));
    });
  }
  return changes;
}

/** Removes a file the target tree lacks, then the directories it leaves empty (never the top). */
function removeFile(root: string, path: string): void {
  const file = join(root, path);
  try {
    if (!lstatSync(file).isDirectory()) unlinkSync(file);
  } catch {
    return; // gone already
  }
  for (let dir = dirname(file); dir.startsWith(`${root}/`); dir = dirname(dir)) {
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

/** The refs under `prefix` with their commits' times (seconds). */
export async function refsUnder(repo: Repo, prefix: string): Promise<Array<{ ref: string; time: number }>> {
  const out = await repo.git(["for-each-ref", "--format=%(refname) %(committerdate:unix)", prefix]);
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [ref, time] = line.split(" ");
      return { ref: ref!, time: Number(time) };
    });
}

/** Deletes refs in one transaction. */
export async function deleteRefs(repo: Repo, refs: readonly string[]): Promise<void> {
  if (refs.length === 0) return;
  await repo.git(["update-ref", "--stdin"], undefined, refs.map((r) => `delete ${r}\n`).join(""));
}
