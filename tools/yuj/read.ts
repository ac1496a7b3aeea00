// `read`: a text file with `N: text` line numbers. offset is a 0-based count
// of lines to skip, display numbering is 1-based, limit=0 means the whole rest
// of the file (the core bounds the size centrally). The file is streamed: a
// read with a limit reads only as far as its last line (and one byte more, to
// tell whether the file goes on), so ten lines of a 500 MB file cost one
// chunk. A whole-file read of a file past the size limit is refused unread.

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { MAX_LOADED_FILE_BYTES, sizeAndLimit, tooLarge } from "../lib/file-limits.js";
import { scanLines, type LineScan } from "../lib/line-scan.js";
import { echoPath, locateExistingFile } from "../lib/paths.js";
import { yujPaths } from "../lib/file-access.js";
import { pathSpellingError } from "../lib/path-spelling.js";
import { checkedReads } from "../lib/pinned-fs.js";
import { homeExpanded, locateInSkillDir, markSkillLoaded } from "../lib/skill-files.js";
import type { Skill } from "../../core/skills/discover.js";
import { num, rangeSummary, shownPath, str } from "../lib/view.js";

export const readSchema = z.object({
  path: z.string(),
  offset: z.number().int().optional(),
  limit: z.number().int().optional(),
});

const reminder = (text: string) => `<system-reminder>${text}</system-reminder>`;

/** What the view shows of lines read: the lines themselves, numbered by the view. */
const fileView = (path: string, startLine: number, lines: string[], notes: string[] = []): ToolDisplay => ({
  kind: "file",
  path,
  startLine,
  lines,
  ...(notes.length ? { notes } : {}),
});

export const readTool: ToolHandler<typeof readSchema> = {
  id: "read",
  schema: readSchema,
  effects: INSPECTS,
  touches: (args) => [{ path: args.path, as: "reads" }],
  permissions: { family: "read" },
  view: {
    card: "foldable",
    summary: (args, facts) => rangeSummary(shownPath(str(args, "path") ?? "", facts.cwd), num(args, "offset") ?? 0, num(args, "limit") ?? 0),
  },
  async run(args, ctx) {
    const offset = args.offset ?? 0;
    const limit = args.limit ?? 0;
    if (offset < 0) return fail(`ERROR: offset must be >= 0, got ${offset}`);
    if (limit < 0) return fail(`ERROR: limit must be >= 0, got ${limit}`);

    const shown = echoPath(ctx.cwd, args.path);
    const directory = `ERROR: ${shown} is a directory — use glob to list contents.`;
    // An enabled skill's folder is readable though it lies outside the project
    // (by its absolute path, or from ~/); so is the session's saved output (a
    // cut result, a command's log). Hidden paths are not.
    const inSkill = await locateInSkillDir(ctx, homeExpanded(ctx, args.path), directory);
    const spelling = inSkill ? "" : await pathSpellingError(ctx.services.fs, ctx.cwd, args.path);
    if (spelling) return fail(spelling);
    const file = inSkill ?? (await locateExistingFile(ctx.services.fs, ctx.cwd, args.path, { directory, access: yujPaths(ctx, "read") }));
    if (!file.ok) return fail(file.error);
    if (file.size === 0) {
      const empty = `File ${shown} exists but is empty (0 bytes).`;
      return ok(reminder(empty), fileView(file.display, 1, [], [empty]));
    }
    if (limit === 0 && tooLarge(file.size)) {
      return fail(
        `ERROR: ${shown} is too large to read whole ${sizeAndLimit(file.size)}; ` +
          "pass offset and limit to read part of it (limit=2000 reads 2000 lines), or search it with grep.",
      );
    }

    let scan: LineScan;
    try {
      // Read as checked: a link swapped in since the path was resolved is refused, not followed.
      scan = await scanLines(checkedReads(ctx.services.fs), file.abs, {
        from: offset,
        count: limit > 0 ? limit : Infinity,
        toEnd: false,
        loneCrEndsLine: true,
        maxKeptBytes: MAX_LOADED_FILE_BYTES,
        stopWhenCut: true,
      });
    } catch (err) {
      return fail(`ERROR: cannot read ${shown}: ${(err as Error).message}`);
    }
    if (!scan.ok) {
      return fail(
        `ERROR: file ${shown} is not UTF-8 text (use bash with \`file ${shown}\` or \`xxd\` to inspect bytes).`,
      );
    }
    if (scan.cut) {
      return fail(
        `ERROR: lines ${offset + 1}-${limit > 0 ? offset + limit : "end"} of ${shown} hold more than ${MAX_LOADED_FILE_BYTES} bytes, ` +
          "more than one read returns; read fewer lines (a smaller limit), or search the file with grep.",
      );
    }

    const slice = scan.lines;
    if (offset > 0 && slice.length === 0) {
      const past = `Read offset ${offset} is past EOF for ${shown} (file has ${scan.total ?? 0} lines).`;
      return ok(
        reminder(`${past} No content returned — call read with a smaller offset to inspect the file.`),
        fileView(file.display, offset + 1, [], [past]),
      );
    }

    let text = slice.map((line, i) => `${offset + i + 1}: ${line}`).join("\n");
    const notes: string[] = [];
    if (limit > 0 && scan.more) {
      const first = `Read returned the first ${slice.length} lines of ${shown}.`;
      notes.push(`${first} The file is longer.`);
      text += "\n" + reminder(`${first} The file is longer — re-read with a higher limit or a specific offset to see more.`);
    }
    const skill = "skill" in file ? (file.skill as Skill | undefined) : undefined;
    if (skill) {
      markSkillLoaded(ctx, skill);
      notes.push(`✓ skill ${skill.name} loaded`);
    }
    return ok(text, fileView(file.display, offset + 1, slice, notes));
  },
};
