// Checkpoints of finished sessions are let go after a while: their refs are
// deleted, and git's own gc then removes the objects nothing else keeps. A
// session is finished when its status is done or failed and it was last
// updated longer ago than the age; a session whose folder is gone counts as
// finished once its newest checkpoint is that old. Paused sessions and
// sessions waiting for an answer keep theirs: they are still to be resumed.
// Run when a session starts, off its hot path.

import { join } from "node:path";
import { readMeta } from "../session-state.js";
import { deleteRefs, openRepo, refsUnder } from "./git-tree.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneOptions {
  cwd: string;
  /** Where session folders are (core/paths.ts sessionsDir). */
  sessionsDir: string;
  /** [workspace_checkpoints].prune_after_days */
  maxAgeDays: number;
  /** Never pruned: the session starting now. */
  keep?: string;
  now?: number;
}

/** Deletes the refs of finished sessions' checkpoints; returns the ids of the sessions pruned. */
export async function pruneCheckpoints(opts: PruneOptions): Promise<string[]> {
  const repo = await openRepo(opts.cwd);
  if ("none" in repo) return [];
  const now = opts.now ?? Date.now();
  const cutoff = now - opts.maxAgeDays * DAY_MS;
  const bySession = new Map<string, { refs: string[]; newest: number }>();
  for (const { ref, time } of await refsUnder(repo, "refs/yuj/")) {
    const id = ref.split("/")[2];
    if (!id || id === opts.keep) continue;
    const entry = bySession.get(id) ?? { refs: [], newest: 0 };
    entry.refs.push(ref);
    entry.newest = Math.max(entry.newest, time * 1000);
    bySession.set(id, entry);
  }
  const pruned: string[] = [];
  for (const [id, { refs, newest }] of bySession) {
    if (!finishedBefore(opts.sessionsDir, id, newest, cutoff)) continue;
    await deleteRefs(repo, refs);
    pruned.push(id);
  }
  return pruned;
}

function finishedBefore(sessionsDir: string, id: string, newestRef: number, cutoff: number): boolean {
  const meta = /^[0-9a-z-]+$/.test(id) ? readMeta(join(sessionsDir, id)) : undefined;
  if (!meta) return newestRef < cutoff;
  if (meta.status !== "done" && meta.status !== "failed") return false;
  return Date.parse(meta.updatedAt) < cutoff;
}
