// Finding the `.git` entries (directories, `gitdir:` files, links) under the
// project after a sandboxed command, cheaply enough to do after every one.
//
// The walk is breadth-first from the project root, so the top of the tree,
// where people run git, always comes first; `node_modules` directories are
// walked last. It never enters a `.git` directory, never follows a symbolic
// link, and stops after MAX_DIRS directories. A directory whose ctime is
// what the previous walk saw has the same entries, so its listing is reused
// and costs one stat (ctime, unlike mtime, cannot be set back by a command).
// A directory changed in the last CTIME_SETTLE_MS is listed again anyway:
// timestamps are coarse, and a change in the same tick as the last listing
// would otherwise hide.

import * as fs from "node:fs";
import * as path from "node:path";

/** Directories looked at per walk; the rest of a larger project is not. */
const MAX_DIRS = 10_000;
const CTIME_SETTLE_MS = 2_000;
const HEAVY = "node_modules";

interface Listing {
  ino: bigint;
  ctimeNs: bigint;
  subdirs: string[];
  /** The directory has a `.git` entry of any kind. */
  hasGit: boolean;
}

export interface WalkResult {
  /** Work-tree roots holding a `.git` entry, shallowest first. */
  roots: string[];
  /** The walk stopped at MAX_DIRS before seeing everything. */
  truncated: boolean;
}

export class GitEntryWalker {
  private readonly cache = new Map<string, Listing>();

  constructor(
    private readonly project: string,
    private readonly maxDirs = MAX_DIRS,
  ) {}

  walk(): WalkResult {
    const roots: string[] = [];
    const seen = new Set<string>();
    const queue: string[] = [this.project];
    const later: string[] = [];
    let visited = 0;
    const settledBefore = BigInt(Date.now() - CTIME_SETTLE_MS) * 1_000_000n;
    for (let i = 0; ; i++) {
      if (i === queue.length) {
        if (later.length === 0) break;
        queue.push(...later.splice(0));
      }
      if (visited >= this.maxDirs) return { roots, truncated: true };
      const dir = queue[i]!;
      visited++;
      const listing = this.list(dir, settledBefore);
      if (!listing) continue;
      seen.add(dir);
      if (listing.hasGit) roots.push(dir);
      for (const sub of listing.subdirs) (path.basename(sub) === HEAVY ? later : queue).push(sub);
    }
    // Directories gone since the last walk drop out of the cache.
    for (const dir of this.cache.keys()) if (!seen.has(dir)) this.cache.delete(dir);
    return { roots, truncated: false };
  }

  private list(dir: string, settledBefore: bigint): Listing | undefined {
    let st: fs.BigIntStats;
    try {
      st = fs.lstatSync(dir, { bigint: true });
    } catch {
      return undefined;
    }
    if (!st.isDirectory()) return undefined;
    const cached = this.cache.get(dir);
    if (cached && cached.ino === st.ino && cached.ctimeNs === st.ctimeNs && st.ctimeNs < settledBefore) return cached;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const listing: Listing = { ino: st.ino, ctimeNs: st.ctimeNs, subdirs: [], hasGit: false };
    for (const e of entries) {
      if (e.name === ".git") listing.hasGit = true;
      else if (e.isDirectory()) listing.subdirs.push(path.join(dir, e.name));
    }
    this.cache.set(dir, listing);
    return listing;
  }
}

/** The paths of the gitlinks (submodules, nested repositories added whole) in `git ls-files -s -z` output. */
export function gitlinkPaths(lsFiles: string): string[] {
  const out: string[] = [];
  for (const record of lsFiles.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab > 0 && record.startsWith("160000 ")) out.push(record.slice(tab + 1));
  }
  return out;
}
