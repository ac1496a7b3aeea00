// Chord `delete`: remove whole files or symlinks, never directories. The
// result groups the paths: `Deleted (N):`, `Already absent (N):` (a missing
// path is not an error), and, when the call stops, `Blocked`, `Failed` and
// `Not attempted`. Every path is checked before anything is removed; then each
// one's exact bytes are saved under `<sessionDir>/backups/delete/` (a symlink's
// target path as `<name>.symlink`) before it is unlinked. A symlink is never
// followed: the link goes, its target stays.

import { readlinkChecked, unlinkChecked } from "../lib/pinned-fs.js";
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
    const inputs = (typeof args.paths === "string" ? [args.paths] : args.paths).map((p) => p.trim()).filter((p) => p !== "");
    if (inputs.length === 0) return fail("paths is required: name at least one file to delete");
    if (args.reason.trim() === "") return fail("reason is required");
    const { fs } = ctx.services;

    // Every path is checked before anything is removed: one that cannot be
    // deleted (a directory, a device, a refused path) stops the whole call.
    const targets: Target[] = [];
    const absent: string[] = [];
    const blocked: string[] = [];
    const seen = new Set<string>();
    for (const given of inputs) {
      const where = await resolveNoFollow(fs, ctx.cwd, given, ctx.services.ownDirs, chordPaths(ctx, "write"));
      if (!where.ok) {
        blocked.push(`- ${given} — ${where.error}`);
        continue;
      }
      if (seen.has(where.abs)) continue;
      seen.add(where.abs);
      const st = await fs.lstat(where.abs).catch(() => undefined);
      if (!st) absent.push(where.display);
      else if (st.isDirectory()) blocked.push(`- ${where.display} — path is a directory, not a file; delete removes files and symlinks only`);
      else if (!st.isFile() && !st.isSymbolicLink()) blocked.push(`- ${where.display} — unsupported file type (not a regular file or symlink)`);
      else targets.push({ shown: where.display, abs: where.abs, display: where.display, link: st.isSymbolicLink() });
    }
    targets.sort((a, b) => compare(a.display, b.display));
    absent.sort(compare);
    const absentSection = section("Already absent", absent.map((p) => `- ${p}`));
    if (blocked.length > 0) {
      return fail(
        ["Delete failed before execution; no files were removed.", section("Blocked", blocked), absentSection].filter(Boolean).join("\n\n"),
      );
    }

    const deleted: string[] = [];
    const backups: string[] = [];
    for (const [i, t] of targets.entries()) {
      let backup: string;
      let failure: string | undefined;
      try {
        backup = t.link
          ? await backupBytes(fs, ctx.sessionDir, "delete", `${t.display}.symlink`, await readlinkChecked(t.abs, fs))
          : await backupFile(fs, ctx.sessionDir, "delete", t.display, t.abs);
        await unlinkChecked(fs, t.abs);
      } catch (err) {
        failure = (err as Error).message;
        backup = "";
      }
      if (failure !== undefined) {
        const rest = targets.slice(i + 1).map((r) => `- ${r.display}`);
        return fail(
          [
            "Delete stopped after an execution error.",
            section("Deleted", deleted),
            absentSection,
            section("Failed", [`- ${t.display} — ${failure}`]),
            section("Not attempted", rest),
            section("Backups", backups),
          ]
            .filter(Boolean)
            .join("\n\n"),
        );
      }
      forget(ctx.memory, t.abs);
      deleted.push(`- ${t.display}${t.link ? " (symlink; its target is untouched)" : ""}`);
      backups.push(`- ${t.display} — ${backup}`);
    }
    const text = ["Delete completed.", section("Deleted", deleted), absentSection, section("Backups", backups)].filter(Boolean).join("\n\n");
    const gone = targets.map((t) => `${t.display}${t.link ? " (symlink; target untouched)" : ""}`);
    return ok(text, {
      kind: "paths",
      paths: gone,
      total: gone.length,
      hint: "deleted; each one backed up in the session folder",
    });
  },
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `Title (N):` and its lines; empty when there are none. */
function section(title: string, lines: readonly string[]): string {
  return lines.length ? `${title} (${lines.length}):\n${lines.join("\n")}` : "";
}
