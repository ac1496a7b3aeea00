// Every name a path rule may know a file by. A file tool does not operate on
// the path as written: it re-roots `/src/x` into the project when `src`
// exists there, and follows symlinks, its own and its directories'. So a
// rule on `secret.txt` must also meet `/secret.txt`, a link to it, a path
// through a linked directory, and a hard link to it (same device and
// inode): all of these are names of the file. Names are given as the rules
// see paths — relative inside the project, absolute outside.
//
// Hard links have no "real" name to resolve to, so the other names are
// looked for: among the project's files (a bounded walk, skipping .git),
// and among the exact paths the deny and ask rules name.

import { readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import * as path from "node:path";
import { cleanPath } from "./clean-path.js";

/** How many directory entries the search for other hard-link names reads at most. */
const HARD_LINK_SEARCH_LIMIT = 50_000;

export interface NameOptions {
  /** Look for the file's other hard-link names (only worth it when a path rule could deny). */
  hardLinks: boolean;
  /** Exact paths named by deny and ask rules: each is a name when it is the same file. */
  literalPaths: readonly string[];
}

export interface Roots {
  /** The task directory as given, and as resolved. */
  abs: string;
  real: string;
}

export function projectRoots(cwd: string): Roots | undefined {
  const abs = path.resolve(cwd);
  const real = tryRealpath(abs);
  return real === undefined ? undefined : { abs, real };
}

/** The names of the file at `input` (the name as written first); only that one when the project is not on disk. */
export function pathNames(input: string, cwd: string, opts: NameOptions): string[] {
  const written = cleanPath(input, cwd);
  const roots = input === "" || input.startsWith("~") ? undefined : projectRoots(cwd);
  if (!roots) return [written];
  const target = toolTarget(input, roots);
  const real = realpathDeepest(target);
  const names = [written, nameOf(target, roots), nameOf(real, roots)];
  const st = tryStat(real);
  if (st?.isFile()) {
    if (opts.hardLinks && st.nlink > 1) names.push(...otherLinks(roots.real, st, real).map((abs) => nameOf(abs, roots)));
    for (const p of opts.literalPaths) {
      const other = tryStat(path.resolve(roots.abs, p));
      if (other && other.dev === st.dev && other.ino === st.ino) names.push(cleanPath(p, cwd));
    }
  }
  return [...new Set(names)];
}

/** Where a file tool would operate for `input`, before symlinks. */
function toolTarget(input: string, roots: Roots): string {
  if (!path.isAbsolute(input)) return path.resolve(roots.abs, input);
  const norm = path.resolve(input);
  if (inside(roots.abs, norm) || inside(roots.real, norm)) return norm;
  // `/src/x` when the project has `src`: the tools read the project's file.
  const rel = norm.replace(/^\/+/, "");
  const first = rel.split("/")[0] ?? "";
  return first && tryStat(path.join(roots.abs, first)) ? path.join(roots.abs, rel) : norm;
}

/** Relative to the project (by either of its roots) when inside it, absolute otherwise. */
function nameOf(abs: string, roots: Roots): string {
  for (const root of [roots.real, roots.abs]) {
    if (abs === root) return ".";
    if (inside(root, abs)) return abs.slice(root.length + (root.endsWith("/") ? 0 : 1));
  }
  return abs;
}

const inside = (root: string, p: string): boolean => p.startsWith(root.endsWith("/") ? root : `${root}/`);

function tryRealpath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function tryStat(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** Realpath of the deepest ancestor that exists, with the missing rest appended. */
function realpathDeepest(p: string): string {
  const tail: string[] = [];
  let cur = p;
  for (;;) {
    const real = tryRealpath(cur);
    if (real !== undefined) return path.join(real, ...tail.reverse());
    const parent = path.dirname(cur);
    if (parent === cur) return p;
    tail.push(path.basename(cur));
    cur = parent;
  }
}

/** The project's other files with the same device and inode. */
function otherLinks(root: string, st: Stats, self: string): string[] {
  return (linkIndex(root).get(`${st.dev}:${st.ino}`) ?? []).filter((p) => p !== self);
}

/**
 * Every multiply-linked file of the project by device and inode, read once
 * per burst of synchronous evaluations (a grep's results are judged in one)
 * and dropped before anything else can run, so it is never stale.
 */
let cached: { root: string; byInode: Map<string, string[]> } | undefined;

function linkIndex(root: string): Map<string, string[]> {
  if (cached?.root === root) return cached.byInode;
  const byInode = new Map<string, string[]>();
  let budget = HARD_LINK_SEARCH_LIMIT;
  const stack = [root];
  while (stack.length && budget > 0) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (--budget <= 0) break;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== ".git") stack.push(abs);
        continue;
      }
      if (!e.isFile()) continue;
      const st = tryStat(abs);
      if (!st || st.nlink < 2) continue;
      const key = `${st.dev}:${st.ino}`;
      byInode.set(key, [...(byInode.get(key) ?? []), abs]);
    }
  }
  cached = { root, byInode };
  setImmediate(() => (cached = undefined));
  return byInode;
}
