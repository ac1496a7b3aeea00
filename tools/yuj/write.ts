// `write`: create or replace a whole file, creating missing parent
// directories. The replacement is atomic, so a failure never leaves half a file.

import { z } from "zod";
import { directoryTargetError, resolveInCwd } from "../lib/paths.js";
import { skillPathReadOnly } from "../lib/skill-files.js";
import { fileInTheWay, pathSpellingError } from "../lib/path-spelling.js";
import { yujPaths } from "../lib/file-access.js";
import { atomicWriteChecked } from "../lib/pinned-fs.js";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import { writePreview } from "../lib/previews.js";
import { shownPath, str } from "../lib/view.js";
import { fsErrorText } from "../lib/fs-error.js";

export const writeSchema = z.object({
  path: z.string(),
  content: z.string(),
});

export const writeTool: ToolHandler<typeof writeSchema> = {
  id: "write",
  schema: writeSchema,
  effects: MUTATES,
  touchKinds: new Set(["writes"]),
  touches: (args) => [{ path: args.path, as: "writes" }],
  permissions: { family: "write" },
  view: {
    card: "expanded",
    preview: (args, facts) => writePreview(str(args, "path"), str(args, "content"), facts.cwd),
  },
  async run(args, ctx) {
    const { fs } = ctx.services;
    const spelling = await pathSpellingError(fs, ctx.cwd, args.path);
    if (spelling) return fail(spelling);
    const asDir = directoryTargetError(args.path);
    if (asDir) return fail(`ERROR: ${asDir}`);
    const skillRefusal = await skillPathReadOnly(ctx, args.path);
    if (skillRefusal) return fail(skillRefusal);
    const where = await resolveInCwd(fs, ctx.cwd, args.path, { forbidNewline: true, write: { ownDirs: ctx.services.ownDirs }, ...yujPaths(ctx, "write") });
    if (!where.ok) return fail(where.error);
    // An absolute path inside the project is echoed relative, as read echoes it.
    const shown = shownPath(args.path, ctx.cwd);

    const isDir = await fs.stat(where.abs).then(
      (st) => st.isDirectory(),
      () => false,
    );
    if (isDir) {
      return fail(`ERROR: ${shown} is a directory — choose a different name or remove the directory first.`);
    }

    // A file where a folder must be: named, instead of failing deep in the checked write.
    const blocker = await fileInTheWay(fs, where.cwdReal, where.abs);
    if (blocker) return fail(`ERROR: cannot write ${shown}: ${blocker} is a file, not a directory; choose another path or remove ${blocker} first`);

    try {
      await atomicWriteChecked(fs, where.abs, args.content, { createParents: true });
    } catch (err) {
      return fail(`ERROR: cannot write ${shown}: ${fsErrorText(err)}`);
    }
    // The count is in characters (code points), as the reference reports it.
    const chars = [...args.content].length;
    return ok(`OK: wrote ${chars} bytes to ${shown}`);
  },
};
