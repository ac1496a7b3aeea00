// What `git status` shows changed in the project, as a comparable state:
// each listed path with its status and a hash of its content, so a file
// that was already modified and is modified again still counts as changed.
// The finish rule uses it to see the file changes shell commands make,
// which their text cannot tell.

import { createHash } from "node:crypto";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import type { GitRunner } from "../../core/git.js";
import { fileInventory } from "./file-inventory.js";

/** The repository's root, and each listed path (relative to it) → status and content fingerprint. */
export interface WorktreeState {
  readonly root: string;
  readonly files: ReadonlyMap<string, string>;
}

/** More listed paths than this are not hashed one by one: only their status counts. */
const MAX_HASHED = 2000;

/**
 * The project's changed and untracked files. Outside a git repository, every
 * file of the directory (file-inventory.ts); undefined when neither can be
 * had (then command changes cannot be seen).
 */
export async function worktreeState(cwd: string, git: GitRunner): Promise<WorktreeState | undefined> {
  let root: string;
  let listing: string;
  try {
    root = (await git(["rev-parse", "--show-toplevel"], { cwd })).trim();
  } catch {
    const files = await fileInventory(cwd);
    return files && { root: cwd, files };
  }
  try {
    listing = await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], { cwd, maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return undefined;
  }
  const entries = listing.split("\0").filter((e) => e.length > 3);
  const state = new Map<string, string>();
  for (const entry of entries) {
    const status = entry.slice(0, 2);
    const rel = entry.slice(3);
    state.set(rel, entries.length > MAX_HASHED ? status : `${status} ${await contentHash(path.join(root, rel))}`);
  }
  return { root, files: state };
}

async function contentHash(file: string): Promise<string> {
  try {
    return createHash("sha1").update(await fsp.readFile(file)).digest("hex");
  } catch {
    return "-"; // deleted, or a directory (a nested repository)
  }
}

/** Paths (relative to the root) whose entry differs between two states, in sorted order. */
export function changedBetween(before: WorktreeState, after: WorktreeState): string[] {
  const paths = new Set([...before.files.keys(), ...after.files.keys()]);
  return [...paths].filter((p) => before.files.get(p) !== after.files.get(p)).sort();
}
