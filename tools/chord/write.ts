// Chord `write`: create a file or replace a whole one. Replacing
// an existing file is gated: it needs a complete read in this session, or the
// current content being this session's own whole-file write. If a read file
// changed on disk since, the write proceeds with a warning and, when the backup
// succeeds, names it. A symlink at the path is refused, never followed.
// A replaced file that `read` decodes as UTF-16/32 or a legacy CJK charset
// keeps that encoding and its BOM; the content's line endings are written as
// given, as for UTF-8. A new file is UTF-8. Content-free characters a model
// leaks (zero-width runes, orphaned selectors, floating combining marks) are
// cleaned off and counted; content that was nothing but them, or that holds
// a control character, is refused before anything is touched.

import { z } from "zod";
import { atomicWriteChecked, readChecked } from "../lib/pinned-fs.js";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import { sizeAndLimit, tooLarge } from "../lib/file-limits.js";
import { decodeForChordEdit, encodeForChord, UnencodableError } from "../lib/chord/encode.js";
import { backupBytes, deviceRefusal, noteOwnWrite, resolveNoFollow, sha256, writeGate } from "../lib/chord/observations.js";
import { directoryTargetError } from "../lib/paths.js";
import { chordPaths } from "../lib/file-access.js";
import { writePreview } from "../lib/previews.js";
import { cleanedLine, controlCharRefusal, describeInvisible, stripInvisible } from "../lib/invisible-chars.js";
import { str } from "../lib/view.js";

export const chordWriteSchema = z.object({
  path: z.string(),
  content: z.string(),
});

export const chordWriteTool: ToolHandler<typeof chordWriteSchema> = {
  id: "chord_write",
  schema: chordWriteSchema,
  effects: MUTATES,
  touchKinds: new Set(["writes"]),
  touches: (args) => [{ path: args.path, as: "writes" }],
  permissions: { family: "write" },
  view: {
    card: "expanded",
    preview: (args, facts) => writePreview(str(args, "path"), str(args, "content"), facts.cwd),
  },
  async run(args, ctx) {
    if (args.path.trim() === "") return fail("path is required");
    const asDir = directoryTargetError(args.path);
    if (asDir) return fail(asDir);
    const cleaned = stripInvisible(args.content);
    if (cleaned.text === "" && args.content !== "") {
      return fail(
        `content contains only invisible characters: ${describeInvisible(cleaned.removed)}; writing it would truncate ${args.path} to nothing. ` +
          "Send the visible text the file should hold, or an empty content to truncate it on purpose",
      );
    }
    const control = controlCharRefusal("content", cleaned.text);
    if (control) return fail(control);
    const content = cleaned.text;
    const { fs } = ctx.services;
    const shown = args.path;
    const where = await resolveNoFollow(fs, ctx.cwd, args.path, ctx.services.ownDirs, chordPaths(ctx, "write"));
    if (!where.ok) return fail(deviceRefusal(where.error, "write"));

    const st = await fs.lstat(where.abs).catch(() => undefined);
    if (st?.isSymbolicLink()) return fail(`refusing to write through symlink: ${shown}; write the target path instead`);
    if (st?.isDirectory()) return fail(`${shown} is a directory`);
    if (st && !st.isFile()) return fail(`${shown} is not a regular file`);

    let warning = "";
    let out: string | Uint8Array = content;
    let kept: string | undefined;
    if (st && tooLarge(st.size)) {
      return fail(
        `write refused: ${shown} exists and is too large ${sizeAndLimit(st.size)} to check against what was read; ` +
          "delete it first, then write the new content, or change it with shell",
      );
    }
    if (st) {
      let current: Uint8Array;
      try {
        current = await readChecked(fs, where.abs);
      } catch (err) {
        return fail(`cannot write ${shown}: ${(err as Error).message}`);
      }
      const gate = writeGate(ctx.memory, where.abs, sha256(current));
      if (!gate.allowed && gate.changedSinceOwnWrite) {
        return fail(
          `write refused: ${shown} changed on disk after this session wrote it, so the write would overwrite changes you have not seen. ` +
            "Read the whole file first, then retry, or use edit for a targeted change.",
        );
      }
      if (!gate.allowed) {
        return fail(
          `write refused: ${shown} exists and has not been read in full in this session ` +
            "(paged or truncated reads do not count). Read the whole file first, then retry, " +
            "or use edit for a targeted change.",
        );
      }
      // Encoded before the backup and the write, so a refusal leaves no trace.
      const was = decodeForChordEdit(current, { file: where.abs });
      if (was.ok && was.encoding !== undefined) {
        try {
          out = await encodeForChord(content, { bom: was.bom, crlf: false, encoding: was.encoding });
          kept = was.encoding;
        } catch (err) {
          if (err instanceof UnencodableError) return fail(`cannot write ${shown}: ${err.message}`);
          throw err;
        }
      }
      if (gate.drifted) {
        const backup = await backupBytes(fs, ctx.sessionDir, "write", where.display, current).catch(() => undefined);
        warning =
          `\nwarning: ${shown} changed on disk since it was last read; the earlier changes are overwritten` +
          (backup ? ` (previous content backed up to ${backup})` : "");
      }
    }

    try {
      await atomicWriteChecked(fs, where.abs, out, { createParents: true });
    } catch (err) {
      return fail(`cannot write ${shown}: ${(err as Error).message}`);
    }
    noteOwnWrite(ctx.memory, where.abs, sha256(out));
    const bytes = typeof out === "string" ? Buffer.byteLength(out, "utf8") : out.byteLength;
    // As the reference: the cleaned characters on a line of their own, after the summary.
    const note = cleanedLine(cleaned.removed, "your content");
    return ok(`${wroteSummary(content, bytes)}${kept ? `, encoding=${kept}` : ""}${note ? `\n${note}` : ""}${warning}`);
  },
};

/**
 * `Successfully wrote N lines, B bytes`: lines as the content has them (a
 * final newline starts an empty last line, so "a\n" is two), bytes as written.
 */
export function wroteSummary(content: string, bytes: number): string {
  const lines = content === "" ? 0 : content.split("\n").length;
  return `Successfully wrote ${lines} line${lines === 1 ? "" : "s"}, ${bytes} byte${bytes === 1 ? "" : "s"}`;
}
