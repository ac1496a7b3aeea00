// Chord `delete`: remove whole files or symlinks, never
// directories. Every path is checked before anything is removed; then each
// one's exact bytes are saved under `<sessionDir>/backups/delete/` (a symlink's
// target path as `<name>.symlink`) before it is unlinked. A symlink is never
// followed: the link goes, its target stays.

import { readlink } from "node:fs/promises";
import { z } from "zod";
import { chordPaths } from "../lib/file-access.js";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import { backupBytes, backupFile, forget, resolveNoFollow } from "../lib/chord/observations.js";
import { oneLine } from "../../core/text/safe.js";
import { listArg, shownPath, str } from "../lib/view.js";

export const chordDeleteSchema = z.object({
  paths: z.union([z.string(), z.array(z.string()).min(1)]),
  reason: z.string(),
});

interface Target {
  shown: string;
  abs: string;
  display: string;
  link: boolean;
}

export const chordDeleteTool: ToolHandler<typeof chordDeleteSchema> = {
  id: "chord_delete",
  schema: chordDeleteSchema,
  effects: MUTATES,
  touchKinds: new Set(["deletes"]),
  touches: (args) => listArg(args.paths).map((path) => ({ path, as: "deletes" as const })),
  permissions: { family: "delete" },
  view: {
    card: "expanded",
    preview: (args, facts) => {
      const paths = listArg(args.paths).map((p) => shownPath(p, facts.cwd));
      return { kind: "paths", paths, total: paths.length };
    },
    describe: (args, facts) => {
      const reason = str(args, "reason");
      return {
        summary: `${facts.name}: ${listArg(args.paths).map((p) => oneLine(p)).join(", ")}`,
        ...(reason ? { detail: `reason: ${reason}` } : {}),
      };
    },
  },
  async run(args, ctx) {
    const inputs = typeof args.paths === "string" ? [args.paths] : args.paths;
    if (inputs.length === 0 || inputs.some((p) => p.trim() === "")) return fail("paths must name at least one file");
    if (args.reason.trim() === "") return fail("reason is required");
    const { fs } = ctx.services;

    const targets: Target[] = [];
    for (const shown of inputs) {
      const where = await resolveNoFollow(fs, ctx.cwd, shown, ctx.services.ownDirs, chordPaths(ctx, "write"));
      if (!where.ok) return fail(`nothing deleted: ${where.error}`);
      if (targets.some((t) => t.abs === where.abs)) continue;
      const st = await fs.lstat(where.abs).catch(() => undefined);
      if (!st) return fail(`nothing deleted: file not found: ${shown}`);
      if (st.isDirectory()) return fail(`nothing deleted: ${shown} is a directory; delete removes files and symlinks only`);
      if (!st.isFile() && !st.isSymbolicLink()) return fail(`nothing deleted: ${shown} is not a regular file`);
      targets.push({ shown, abs: where.abs, display: where.display, link: st.isSymbolicLink() });
    }

    const lines: string[] = [];
    for (const [i, t] of targets.entries()) {
      let backup: string;
      try {
        backup = t.link
          ? await backupBytes(fs, ctx.sessionDir, "delete", `${t.display}.symlink`, await readlink(t.abs))
          : await backupFile(fs, ctx.sessionDir, "delete", t.display, t.abs);
      } catch (err) {
        return fail(stopped(lines, `cannot back up ${t.shown}, not deleted: ${(err as Error).message}`, targets.length - i));
      }
      try {
        await fs.unlink(t.abs);
      } catch (err) {
        return fail(stopped(lines, `cannot delete ${t.shown}: ${(err as Error).message}`, targets.length - i));
      }
      forget(ctx.memory, t.abs);
      lines.push(`- ${t.shown}${t.link ? " (symlink; target untouched)" : ""}; backup: ${backup}`);
    }
    const gone = targets.map((t) => `${t.display}${t.link ? " (symlink; target untouched)" : ""}`);
    return ok(`Deleted ${lines.length} path${lines.length === 1 ? "" : "s"}:\n${lines.join("\n")}`, {
      kind: "paths",
      paths: gone,
      total: gone.length,
      hint: "deleted; each one backed up in the session folder",
    });
  },
};

function stopped(done: string[], error: string, left: number): string {
  const head = done.length ? `Deleted ${done.length} path(s) before stopping:\n${done.join("\n")}\n` : "";
  return `${head}${error} (${left} path${left === 1 ? "" : "s"} left in place)`;
}
