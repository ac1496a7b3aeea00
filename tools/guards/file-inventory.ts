// The finish rule's view of a project that is not in a git repository: a
// bounded walk listing every file with its size and modification time, in
// the same comparable form as the git status view (worktree-changes.ts), so
// a command's change to such a project is seen too. A file rewritten with
// its old text still counts as changed: something wrote it.

import * as fsp from "node:fs/promises";
import * as path from "node:path";

/** Past this many files the walk gives up: a change could not be told apart cheaply. */
export const MAX_INVENTORY_FILES = 5000;

/**
 * Directories no task's change lives in: dependencies, and the caches a test
 * run leaves (__pycache__, .pytest_cache and every other dot-directory), which
 * would otherwise make running the tests count as a change.
 */
const skipped = (name: string) => name.startsWith(".") || name === "__pycache__" || name === "node_modules";

/** Each file (relative to `root`) → `size mtime`; undefined when the project is too large to list. */
export async function fileInventory(root: string): Promise<Map<string, string> | undefined> {
  const files = new Map<string, string>();
  const pending = [""];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    let entries;
    try {
      entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue; // unreadable, or removed while walking
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!skipped(e.name)) pending.push(child);
        continue;
      }
      if (files.size >= MAX_INVENTORY_FILES) return undefined;
      try {
        const st = await fsp.lstat(path.join(root, child));
        files.set(child, `${st.size} ${st.mtimeMs}`);
      } catch {
        // removed while walking: not there
      }
    }
  }
  return files;
}
