// `[sandbox].unreadable_paths`: host paths a sandboxed command must not read.
// Entries are absolute paths, `~/` paths, or globs (`*`, `**`, `?`, `[...]`,
// `{a,b}`); relative entries are taken inside the project. A missing plain
// path is an error, because a typo would silently leave the real secret
// readable; `optional:` marks a path that may legitimately be absent. A glob
// that matches nothing is fine. Everything resolves to real paths, so a
// symlink cannot be used to reach a hidden file by another name.
//
// Resolved again for every command, so a secret created mid-session is
// still hidden.

import * as fs from "node:fs";
import * as path from "node:path";
import { minimatch } from "minimatch";
import type { HiddenPath } from "./bwrap.js";

const OPTIONAL_PREFIX = "optional:";
const MAGIC = /[*?[\]{}]/;
/** A glob that makes us look at more entries than this is refused, not half-applied. */
const MAX_GLOB_ENTRIES = 200_000;
// Kernel views, not files: never walked by a glob from "/".
const NEVER_WALK = ["/proc", "/sys", "/dev"];

export interface UnreadableOptions {
  projectDir: string;
  home?: string;
  maxEntries?: number;
}

export type Resolved = { hidden: HiddenPath[] } | { error: string };

const prefix = "[sandbox].unreadable_paths";

function expand(entry: string, opts: UnreadableOptions): string {
  if ((entry === "~" || entry.startsWith("~/")) && opts.home) return path.join(opts.home, entry.slice(1));
  return path.isAbsolute(entry) ? entry : path.join(opts.projectDir, entry);
}

function hiddenAt(p: string): HiddenPath | undefined {
  try {
    const real = fs.realpathSync(p);
    return { path: real, kind: fs.statSync(real).isDirectory() ? "dir" : "file" };
  } catch {
    return undefined; // gone, or a dangling symlink: nothing to read
  }
}

/** The directory a glob's matches must all lie under: its leading plain segments. */
function globBase(pattern: string): string {
  const parts = pattern.split("/");
  const plain: string[] = [];
  for (const part of parts) {
    if (MAGIC.test(part)) break;
    plain.push(part);
  }
  return plain.join("/") || "/";
}

function expandGlob(raw: string, pattern: string, max: number): HiddenPath[] | { error: string } {
  const mm = { dot: true };
  const out: HiddenPath[] = [];
  const stack = [globBase(pattern)];
  let seen = 0;
  while (stack.length) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue; // not a directory, or not readable by us either
    }
    for (const name of names) {
      if (++seen > max) {
        return { error: `${prefix}: "${raw}" needs more than ${max} entries scanned under ${globBase(pattern)}; narrow the pattern` };
      }
      const p = path.join(dir, name);
      if (minimatch(p, pattern, mm)) {
        const h = hiddenAt(p);
        if (h) out.push(h);
        continue; // hiding a directory hides everything below it
      }
      if (NEVER_WALK.some((k) => p === k) || !minimatch(p, pattern, { ...mm, partial: true })) continue;
      let isDir = false;
      try {
        isDir = fs.lstatSync(p).isDirectory(); // symlinked directories are not followed
      } catch {
        /* vanished */
      }
      if (isDir) stack.push(p);
    }
  }
  return out;
}

/** Every configured entry as real paths to hide, or the first entry that is wrong. */
export function resolveUnreadable(entries: readonly string[], opts: UnreadableOptions): Resolved {
  const hidden: HiddenPath[] = [];
  for (const raw of entries) {
    const optional = raw.startsWith(OPTIONAL_PREFIX);
    const entry = optional ? raw.slice(OPTIONAL_PREFIX.length).trim() : raw.trim();
    if (!entry) return { error: `${prefix}: an entry is empty` };
    const full = path.normalize(expand(entry, opts));
    if (MAGIC.test(full)) {
      const found = expandGlob(raw, full, opts.maxEntries ?? MAX_GLOB_ENTRIES);
      if ("error" in found) return found;
      hidden.push(...found);
      continue;
    }
    const h = hiddenAt(full);
    if (!h) {
      if (optional) continue;
      return { error: `${prefix}: ${full} does not exist (write "${OPTIONAL_PREFIX}${entry}" if it may be absent)` };
    }
    hidden.push(h);
  }
  for (const h of hidden) {
    if (h.path === "/") return { error: `${prefix}: hiding / would hide everything` };
  }
  // One mount per path, outermost first so a nested duplicate adds nothing.
  const unique = [...new Map(hidden.map((h) => [h.path, h])).values()].sort((a, b) => a.path.length - b.path.length);
  return { hidden: unique.filter((h, i) => !unique.slice(0, i).some((o) => o.kind === "dir" && isInside(h.path, o.path))) };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}
