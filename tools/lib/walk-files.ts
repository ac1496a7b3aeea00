// The directory walk behind both glob tools: files under a root, relative and
// `/`-separated, down to a depth. `.git` is never walked (never a task file,
// only time). Symlinked directories are not entered, which keeps link cycles
// out; symlinks to files count as files. Unreadable directories are skipped.

import * as path from "node:path";
import type { ToolContext } from "../../core/tool-types.js";

const SKIP_DIRS = new Set([".git"]);

export async function walkFiles(ctx: ToolContext, root: string, depth: number): Promise<string[]> {
  const { fs } = ctx.services;
  const out: string[] = [];
  const visit = async (dir: string, rel: string, level: number): Promise<void> => {
    if (ctx.signal.aborted) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && level + 1 < depth) await visit(childAbs, childRel, level + 1);
      } else if (entry.isFile()) {
        out.push(childRel);
      } else if (entry.isSymbolicLink()) {
        if (await fs.stat(childAbs).then((st) => st.isFile(), () => false)) out.push(childRel);
      }
    }
  };
  await visit(root, "", 0);
  return out;
}
