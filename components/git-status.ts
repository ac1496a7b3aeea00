// The branch and changed files for the side panel. Runs git directly (no
// shell), with a short timeout and without taking the index lock, so a slow
// or busy repository costs a missing panel section rather than a stall; and
// through core/git, so nothing the repository names (fsmonitor, filters,
// external diff, textconv) runs.

import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { gitRunner, type GitRunner } from "../core/git.js";

export interface GitFileChange {
  path: string;
  added: number;
  removed: number;
}

export interface GitStatus {
  branch: string;
  files: GitFileChange[];
}

const TIMEOUT_MS = 2000;
/** Untracked files larger than this, or past this many, count 0 lines. */
const COUNT_MAX_BYTES = 512 * 1024;
const COUNT_MAX_FILES = 50;

function gitFor(run: GitRunner): (cwd: string, args: string[]) => Promise<string | undefined> {
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };
  return (cwd, args) => run(args, { cwd, env, timeoutMs: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }).catch(() => undefined);
}

/** The branch and the changes against HEAD; undefined outside a repository. */
export async function readGitStatus(cwd: string): Promise<GitStatus | undefined> {
  const git = gitFor(gitRunner());
  const [head, numstat, untracked] = await Promise.all([
    git(cwd, ["rev-parse", "--abbrev-ref", "HEAD"]),
    git(cwd, ["diff", "--numstat", "-z", "HEAD"]),
    git(cwd, ["ls-files", "--others", "--exclude-standard", "-z"]),
  ]);
  // A repository without commits has no HEAD to parse; its branch name is
  // still where HEAD points.
  let branch = head?.trim() || (await git(cwd, ["symbolic-ref", "--short", "HEAD"]))?.trim();
  if (!branch) return undefined;
  if (branch === "HEAD") branch = `detached ${(await git(cwd, ["rev-parse", "--short", "HEAD"]))?.trim() ?? ""}`.trim();
  const files = numstat ? parseNumstat(numstat) : [];
  const added = (untracked ?? "").split("\0").filter(Boolean);
  const counted = await Promise.all(
    added.map(async (path, i): Promise<GitFileChange> => ({
      path,
      added: i < COUNT_MAX_FILES ? await countLines(join(cwd, path)) : 0,
      removed: 0,
    })),
  );
  return { branch, files: [...files, ...counted] };
}

/**
 * `git diff --numstat -z`: `added\tremoved\tpath\0`, or for a rename
 * `added\tremoved\t\0old\0new\0`. Binary files show `-` counts, read as 0.
 */
export function parseNumstat(out: string): GitFileChange[] {
  const parts = out.split("\0");
  const files: GitFileChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i]!);
    if (!m) continue;
    let path = m[3]!;
    if (path === "") {
      path = parts[i + 2] ?? parts[i + 1] ?? "";
      i += 2;
    }
    files.push({ path, added: m[1] === "-" ? 0 : Number(m[1]), removed: m[2] === "-" ? 0 : Number(m[2]) });
  }
  return files;
}

async function countLines(path: string): Promise<number> {
  try {
    const s = await stat(path);
    if (!s.isFile() || s.size > COUNT_MAX_BYTES) return 0;
    const data = await readFile(path);
    if (data.includes(0)) return 0; // binary
    if (!data.length) return 0;
    let n = 0;
    for (const byte of data) if (byte === 10) n++;
    return data[data.length - 1] === 10 ? n : n + 1;
  } catch {
    return 0;
  }
}
