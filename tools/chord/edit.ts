// Chord `edit`: replace exact text in one existing file. The
// current disk content is what is matched (no read is required: the exact
// match guards the anchor); old_string must be unique unless replace_all. If
// the file was read in full and has changed since, the edit still applies when
// the anchor matches, with a warning and a best-effort backup. The file keeps
// its encoding (any `read` can decode, chord-encode.ts), BOM and every line's
// ending. When old_string is not in the file exactly, a single match that
// differs only in punctuation forms (curly or straight quotes, full-width
// CJK punctuation) is used instead, keeping the file's own characters where
// the change does not touch them, and the result says so.

import { z } from "zod";
import { atomicWrite } from "../../core/atomic-write.js";
import { fail, MUTATES, ok, type ToolHandler } from "../../core/tool-types.js";
import { sizeAndLimit, tooLarge } from "../lib/file-limits.js";
import { didYouMean, echoPath, resolveInCwd } from "../lib/paths.js";
import { chordPaths } from "../lib/file-access.js";
import { decodeForChordEdit, encodeForChord, undecodableReason, UnencodableError } from "../lib/chord/encode.js";
import { backupBytes, noteOwnChange, observation, plain, sha256 } from "../lib/chord/observations.js";
import { lfView, replaceKeepingEndings } from "../lib/line-endings.js";
import { findReplacements } from "../lib/chord/edit-match.js";
import { replacePreview } from "../lib/previews.js";
import { str } from "../lib/view.js";

export const chordEditSchema = z.object({
  path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});


export const chordEditTool: ToolHandler<typeof chordEditSchema> = {
  id: "chord_edit",
  schema: chordEditSchema,
  effects: MUTATES,
  touchKinds: new Set(["updates"]),
  touches: (args) => [{ path: args.path, as: "updates" }],
  permissions: { family: "edit" },
  view: {
    card: "expanded",
    preview: (args, facts) => replacePreview(str(args, "path"), str(args, "old_string"), str(args, "new_string"), facts.cwd),
  },
  async run(args, ctx) {
    if (args.path.trim() === "") return fail("path is required");
    if (args.old_string === "") {
      return fail("old_string must not be empty; use write to create a file or replace its whole content");
    }
    if (args.old_string === args.new_string) return fail("old_string and new_string are identical; nothing to change");
    const { fs } = ctx.services;
    const shown = echoPath(ctx.cwd, args.path);
    const where = await resolveInCwd(fs, ctx.cwd, args.path, { forbidNewline: true, write: { ownDirs: ctx.services.ownDirs }, ...chordPaths(ctx, "write") });
    if (!where.ok) return fail(plain(where.error));

    let bytes: Uint8Array;
    try {
      const st = await fs.stat(where.abs);
      if (st.isDirectory()) return fail(`${shown} is a directory`);
      if (tooLarge(st.size)) {
        return fail(`cannot edit ${shown}: file too large ${sizeAndLimit(st.size)}; change it with shell (sed, or a script that streams it) instead`);
      }
      bytes = await fs.readFile(where.abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EACCES") return fail(`permission denied: ${shown}`);
      return fail(`file not found: ${shown}${await didYouMean(fs, ctx.cwd, args.path)}`);
    }
    const decoded = decodeForChordEdit(bytes, { keepEndings: true });
    if (!decoded.ok) {
      return fail(decoded.reason === "binary" ? `cannot edit binary file: ${shown}` : `cannot edit ${shown}: ${undecodableReason(decoded)}`);
    }

    // Matched on the LF view the model reads; each line keeps its own ending.
    const view = lfView(decoded.text);
    const text = view.lf;
    const oldStr = args.old_string.replace(/\r\n/g, "\n");
    const newStr = args.new_string.replace(/\r\n/g, "\n");
    const found = findReplacements(text, oldStr, newStr, args.replace_all === true);
    if (found.kind === "none") {
      return fail(
        `old_string not found in ${shown}, even after punctuation/whitespace tolerance; ` +
          "read the file to get the exact current text (whitespace included)",
      );
    }
    if (found.kind === "many") {
      const how = found.tolerant ? " under punctuation/whitespace-tolerant matching" : "";
      return fail(
        `old_string matches ${found.count} places in ${shown}${how}; include more surrounding context to make it unique, ` +
          "or set replace_all=true to replace every occurrence",
      );
    }
    const count = found.replacements.length;
    const after = replaceKeepingEndings(view, found.replacements);
    // Encoded before anything touches the disk (the backup included), so an
    // unencodable character leaves no trace.
    let out: Uint8Array;
    try {
      out = await encodeForChord(after, { ...decoded, crlf: false });
    } catch (err) {
      if (err instanceof UnencodableError) return fail(`cannot edit ${shown}: ${err.message}`);
      throw err;
    }

    let warning = "";
    const seen = observation(ctx.memory, where.abs)?.completeRead;
    if (seen !== undefined && seen !== sha256(bytes)) {
      const backup = await backupBytes(fs, ctx.sessionDir, "edit", where.display, bytes).catch(() => undefined);
      warning =
        `\nwarning: ${shown} changed on disk since it was last read; the edit was applied to the current content` +
        (backup ? ` (previous content backed up to ${backup})` : "");
    }

    try {
      await atomicWrite(fs, where.abs, out);
    } catch (err) {
      return fail(`cannot edit ${shown}: ${(err as Error).message}`);
    }
    noteOwnChange(ctx.memory, where.abs, sha256(out));
    const tolerant = found.tolerant
      ? ` via punctuation/whitespace-tolerant match at line${found.lines.length === 1 ? "" : "s"} ${found.lines.join(", ")} (the file's own punctuation was kept where the change did not touch it)`
      : "";
    return ok(`Edited ${shown}: replaced ${count} occurrence${count === 1 ? "" : "s"}${tolerant}${warning}`);
  },
};
