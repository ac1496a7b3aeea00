// The directory walk behind both glob tools: files under a root, relative and
// `/`-separated, down to a depth. `.git` is never walked (never a task file,
// only time). Unreadable directories are skipped. Symlinks to files count as
// files. Symlinked directories are entered only when asked (`followLinks`)
// and the depth is finite, which keeps link cycles out; `inside` drops every
// link whose target lies outside that directory (the project), so a link
// cannot list what the file tools would refuse to open.

import * as path from "node:path";
import type { ToolContext } from "../../core/tool-types.js";
import type { IgnoreRules } from "./ignore-rules.js";

const SKIP_DIRS = new Set([".git"]);

export interface WalkOptions {
  /** Enter symlinked directories (only with a finite depth). */
  followLinks?: boolean;
  /** The real path a link's target must lie in. */
  inside?: string;
  /** Folder names not walked at any depth (besides `.git`). */
  skipDirs?: ReadonlySet<string>;
  /** Ignore-file rules in force at the root; each folder walked adds its own. */
  ignore?: IgnoreRules;
}

export async function walkFiles(ctx: ToolContext, root: string, depth: number, opts: WalkOptions = {}): Promise<string[]> {
  const { fs } = ctx.services;
  const out: string[] = [];
  const inside = opts.inside;
  const within = inside === undefined ? undefined : (real: string) => real === inside || real.startsWith(inside + path.sep);
  const follow = opts.followLinks === true && Number.isFinite(depth);
  const skip = (name: string) => SKIP_DIRS.has(name) || opts.skipDirs?.has(name) === true;
  const visit = async (dir: string, rel: string, level: number, outer: IgnoreRules | undefined): Promise<void> => {
    if (ctx.signal.aborted) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    const rules = outer && level > 0 ? await outer.enter(dir) : outer;
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = path.join(dir, entry.name);
      if (rules?.ignores(childAbs, entry.isDirectory())) continue;
      if (entry.isDirectory()) {
        if (!skip(entry.name) && level + 1 < depth) await visit(childAbs, childRel, level + 1, rules);
      } else if (entry.isFile()) {
        out.push(childRel);
      } else if (entry.isSymbolicLink()) {
        const kind = await linkKind(ctx, childAbs, within);
        if (kind === "file") out.push(childRel);
        else if (kind === "dir" && follow && level + 1 < depth) await visit(childAbs, childRel, level + 1, rules);
      }
    }
  };
  await visit(root, "", 0, opts.ignore);
  return out;
}

/** What a link leads to, if it leads somewhere allowed. */
async function linkKind(
  ctx: ToolContext,
  abs: string,
  within: ((real: string) => boolean) | undefined,
): Promise<"file" | "dir" | undefined> {
  const { fs } = ctx.services;
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st || (!st.isFile() && !st.isDirectory())) return undefined;
  if (within) {
    const real = await fs.realpath(abs).catch(() => undefined);
    if (real === undefined || !within(real)) return undefined;
  }
  return st.isFile() ? "file" : "dir";
}
