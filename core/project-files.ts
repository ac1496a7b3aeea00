// The project's files, for completing `@path` mentions: what git knows
// (tracked files and untracked ones it does not ignore), or, outside a git
// repository, a bounded walk that skips dependency and build folders. Also
// the fuzzy ranking of those paths against what was typed.

import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { runGit } from "./git.js";

/** At most this many paths are listed: completion in a huge tree stays quick. */
const MAX_LISTED_FILES = 20_000;
/** Folders the walk never enters: dependencies, build output, version control. */
const SKIPPED_DIRS = new Set([".git", "node_modules", "dist", "build", "target", ".venv", "__pycache__", ".yuj"]);
const MAX_WALK_DEPTH = 12;

/** The project's files relative to `cwd`, git-aware; never throws (an unreadable tree lists what it could). */
export async function listProjectFiles(cwd: string): Promise<string[]> {
  try {
    const out = await runGit(["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd, timeoutMs: 5000, maxBuffer: 64 * 1024 * 1024 });
    return [...new Set(out.split("\0").filter(Boolean))].slice(0, MAX_LISTED_FILES);
  } catch {
    return walkFiles(cwd);
  }
}

/** Files under `root`, breadth first, without the skipped folders, at most MAX_LISTED_FILES. */
export function walkFiles(root: string): string[] {
  const files: string[] = [];
  let level = [root];
  for (let depth = 0; depth <= MAX_WALK_DEPTH && level.length && files.length < MAX_LISTED_FILES; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const full = join(dir, e.name);
        if (e.isDirectory()) {
          if (!SKIPPED_DIRS.has(e.name)) next.push(full);
        } else if (e.isFile() && files.length < MAX_LISTED_FILES) files.push(relative(root, full));
      }
    }
    level = next;
  }
  return files;
}

/**
 * How well `path` matches `query` as a fuzzy subsequence; undefined: no
 * match. Higher is better: letters that follow each other, a match in the
 * file name, at the start of a path segment, and a short path count for more.
 */
export function fuzzyScore(path: string, query: string): number | undefined {
  if (!query) return -path.length;
  const p = path.toLowerCase();
  const q = query.toLowerCase();
  const nameStart = p.lastIndexOf("/") + 1;
  let score = 0;
  let at = -1;
  for (const ch of q) {
    const found = p.indexOf(ch, at + 1);
    if (found < 0) return undefined;
    if (found === at + 1) score += 5;
    if (found === 0 || p[found - 1] === "/" || p[found - 1] === "." || p[found - 1] === "-" || p[found - 1] === "_") score += 3;
    if (found >= nameStart) score += 2;
    at = found;
  }
  if (p.startsWith(q)) score += 20;
  if (p.slice(nameStart).startsWith(q)) score += 15;
  return score * 10 - path.length;
}

/** The best `limit` paths for `query`, best first. */
export function rankFiles(files: readonly string[], query: string, limit = 8): string[] {
  const scored: Array<[string, number]> = [];
  for (const f of files) {
    const s = fuzzyScore(f, query);
    if (s !== undefined) scored.push([f, s]);
  }
  return scored
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([f]) => f);
}
