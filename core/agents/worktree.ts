// The temporary git worktree an isolated child works in. It starts from the
// parent's files as they are now: HEAD plus every uncommitted change and
// every untracked file git does not ignore. That state is written as a
// commit through a temporary copy of the index, so the user's index, HEAD
// and branch are never touched; the worktree is checked out detached at it.
//
// Every live worktree is written down in yuj's state folder before it is
// created, naming the yuj process that owns it: a yuj killed outright leaves
// the record behind, and the next start removes what it names.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { atomicWriteSync } from "../atomic-write.js";
import { copyIndexKeepingTime, gitRunner, YUJ_COMMIT_IDENTITY, type GitRunner } from "../git.js";
import { isZombie, readBootId, readStat } from "../jobs/proc.js";
import { selfIdentity } from "../jobs/orphans.js";

const GIT_TIMEOUT_MS = 120_000;

export interface Worktree {
  /** The parent's repository (its top level). */
  repo: string;
  /** The parent's directory inside the repository ("" at the top). */
  prefix: string;
  /** The worktree's top level. */
  dir: string;
  /** The child's working directory: the parent's, inside the worktree. */
  cwd: string;
  /** The commit that holds the parent's state when the child started. */
  base: string;
  /** The temporary folder holding the worktree, removed with it. */
  holder: string;
  /** The record naming it in the state folder. */
  record: string;
}

interface WorktreeRecord {
  repo: string;
  holder: string;
  dir: string;
  yujPid: number;
  yujStartTime?: number;
  bootId?: string;
}

export const worktreeRecords = (stateDir: string): string => join(stateDir, "worktrees");

/** Snapshots the parent's state at `cwd` and checks it out in a new worktree. */
export async function openWorktree(cwd: string, stateDir: string, git: GitRunner = gitRunner()): Promise<Worktree | { error: string }> {
  const run = (args: string[], at: string, env?: NodeJS.ProcessEnv) => git(args, { cwd: at, timeoutMs: GIT_TIMEOUT_MS, ...(env ? { env } : {}) });
  let repo: string;
  let prefix: string;
  try {
    repo = (await run(["rev-parse", "--show-toplevel"], cwd)).trim();
    prefix = (await run(["rev-parse", "--show-prefix"], cwd)).trim().replace(/\/$/, "");
  } catch {
    return { error: `${cwd} is not inside a git work tree, and an isolated workspace is a git worktree; run \`git init\` there or use workspace = "shared"` };
  }
  if (!repo) return { error: `${cwd} is inside a git directory, not a work tree; an isolated workspace needs a work tree` };
  const holder = mkdtempSync(join(tmpdir(), "yuj-task-"));
  const dir = join(holder, "tree");
  const record = join(worktreeRecords(stateDir), `${basename(holder)}.json`);
  const entry: WorktreeRecord = { repo, holder, dir, ...selfIdentity() };
  atomicWriteSync(record, JSON.stringify(entry), { createParents: true, durable: false });
  try {
    const base = await snapshotCommit(repo, holder, run);
    await run(["worktree", "add", "--detach", "-q", dir, base], repo);
    return { repo, prefix, dir, cwd: prefix ? join(dir, prefix) : dir, base, holder, record };
  } catch (err) {
    await removeWorktree({ repo, dir, holder, record }, git);
    return { error: `the isolated worktree could not be made: ${(err as Error).message}` };
  }
}

/** The parent's current files as a commit on top of HEAD (or of nothing, before the first commit). */
async function snapshotCommit(repo: string, scratch: string, run: (args: string[], at: string, env?: NodeJS.ProcessEnv) => Promise<string>): Promise<string> {
  let index = (await run(["rev-parse", "--git-path", "index"], repo)).trim();
  if (!isAbsolute(index)) index = resolve(repo, index);
  const tempIndex = join(scratch, "index");
  // Starting from the real index keeps git's stat cache: unchanged files are not hashed again.
  copyIndexKeepingTime(index, tempIndex);
  const env = { ...process.env, GIT_INDEX_FILE: tempIndex };
  await run(["add", "-A", "--", "."], repo, env);
  const tree = (await run(["write-tree"], repo, env)).trim();
  rmSync(tempIndex, { force: true });
  let head: string | undefined;
  try {
    head = (await run(["rev-parse", "--verify", "-q", "HEAD^{commit}"], repo)).trim();
  } catch {
    // No commit yet: the snapshot has no parent.
  }
  const args = ["commit-tree", tree, ...(head ? ["-p", head] : []), "-m", "yuj: the state an isolated task started from"];
  return (await run(args, repo, { ...process.env, ...YUJ_COMMIT_IDENTITY })).trim();
}

/** Removes the worktree, its folder, git's note of it and its record; never throws. */
export async function removeWorktree(wt: Pick<Worktree, "repo" | "dir" | "holder" | "record">, git: GitRunner = gitRunner()): Promise<void> {
  const run = (args: string[]) => git(args, { cwd: wt.repo, timeoutMs: GIT_TIMEOUT_MS }).catch(() => "");
  if (existsSync(wt.repo)) await run(["worktree", "remove", "--force", "--force", wt.dir]);
  rmSync(wt.holder, { recursive: true, force: true });
  if (existsSync(wt.repo)) await run(["worktree", "prune"]);
  rmSync(wt.record, { force: true });
}

/**
 * The same, for yuj's exit, where nothing asynchronous runs: the folder goes
 * and git forgets the worktree whose folder is gone.
 */
export function removeWorktreeSync(wt: Pick<Worktree, "repo" | "holder" | "record">): void {
  rmSync(wt.holder, { recursive: true, force: true });
  if (existsSync(wt.repo)) spawnSync("git", ["-c", "core.hooksPath=/dev/null", "-C", wt.repo, "worktree", "prune"], { stdio: "ignore", timeout: 10_000 });
  rmSync(wt.record, { force: true });
}

/** Removes the worktrees of yujs that ended without removing them; returns their folders. */
export async function sweepLeftoverWorktrees(stateDir: string, git: GitRunner = gitRunner()): Promise<string[]> {
  const folder = worktreeRecords(stateDir);
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const boot = readBootId();
  const removed: string[] = [];
  for (const name of names) {
    const record = join(folder, name);
    let entry: WorktreeRecord;
    try {
      entry = JSON.parse(readFileSync(record, "utf8")) as WorktreeRecord;
    } catch {
      rmSync(record, { force: true }); // half a record names nothing that can be found
      continue;
    }
    if (ownerAlive(entry, boot)) continue;
    await removeWorktree({ repo: entry.repo, dir: entry.dir, holder: entry.holder, record }, git);
    removed.push(entry.dir);
  }
  return removed;
}

function ownerAlive(entry: WorktreeRecord, bootNow: string | undefined): boolean {
  if (entry.bootId !== undefined && bootNow !== undefined && entry.bootId !== bootNow) return false;
  const stat = readStat(entry.yujPid);
  if (!stat || isZombie(stat)) return false;
  return entry.yujStartTime === undefined || stat.startTime === entry.yujStartTime;
}
