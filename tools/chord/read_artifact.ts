// Chord `read_artifact`: one page of a session artifact by its
// session-relative path (`path`, or its alias `rel_path`), e.g.
// artifacts/report.md or a ResultRef's rel_path. offset is the 1-based line
// to start at, as in Chord's `read` (0 is read as 1), and limit is 1..2000
// lines (default 2000). The header names
// the lines shown, the total and the sha256 of the whole artifact;
// expected_sha256 refuses an artifact that changed since its ref was made.
// The text is returned exactly as stored (LF line ends, the final newline
// only when the artifact has one); a first line longer than the budget
// still shows its prefix, and the text is only the artifact's: where a page
// was cut the header says so (`truncated=budget requested_lines=…`).

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { splitLines } from "../lib/text-file.js";
import { ArtifactError, resolveArtifactPath, sha256Hex } from "../lib/chord/artifact-store.js";
import { READ_BUDGET_BYTES, cutToBytes } from "./read.js";

export const ARTIFACT_READ_MAX_LINES = 2000;

export const readArtifactSchema = z.object({
  path: z.string().optional(),
  rel_path: z.string().optional(),
  id: z.string().optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(ARTIFACT_READ_MAX_LINES).optional(),
  expected_sha256: z.string().optional(),
});

export const readArtifactTool: ToolHandler<typeof readArtifactSchema> = {
  id: "read_artifact",
  schema: readArtifactSchema,
  effects: INSPECTS,
  view: { card: "foldable" },
  async run(args, ctx) {
    const byPath = args.path?.trim() ?? "";
    const byAlias = args.rel_path?.trim() ?? "";
    if (byPath && byAlias && byPath !== byAlias) return fail("path and rel_path name different artifacts; give one of them");
    const expected = args.expected_sha256?.trim().toLowerCase();
    if (expected !== undefined && expected !== "" && !/^[0-9a-f]{64}$/.test(expected)) {
      return fail("expected_sha256 must be a 64-character hexadecimal SHA-256 digest");
    }
    let bytes: Buffer;
    try {
      // Every agent of a session reads the session's one artifacts tree (a worker's own included).
      const sessionDir = ctx.orchestration?.artifacts.sessionDir ?? ctx.sessionDir;
      const abs = await resolveArtifactPath(ctx.services.fs, sessionDir, byPath || byAlias);
      bytes = await ctx.services.fs.readFile(abs);
    } catch (err) {
      if (err instanceof ArtifactError) return fail(err.message);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EISDIR") return fail(`${byPath || byAlias} is a directory, not an artifact`);
      return fail(`cannot read the artifact: ${(err as Error).message}`);
    }
    const digest = sha256Hex(bytes);
    if (expected && expected !== digest) return fail(`artifact digest mismatch: expected ${expected}, got ${digest}`);

    const lf = bytes.toString("utf8").replace(/\r\n?/g, "\n");
    const lines = splitLines(lf);
    const total = lines.length;
    // The lines skipped: offset names the first line shown (1-based).
    const offset = Math.max(1, args.offset ?? 1) - 1;
    const limit = args.limit ?? ARTIFACT_READ_MAX_LINES;
    if (offset > total) return fail(`offset ${offset + 1} is past the end of the artifact (${total} lines; offset ${total + 1} is valid but returns no lines)`);
    const picked: string[] = [];
    let used = 0;
    let cut = false;
    const end = Math.min(offset + limit, total);
    for (let n = offset; n < end; n++) {
      const cost = Buffer.byteLength(lines[n]!) + 1;
      if (used + cost > READ_BUDGET_BYTES) {
        cut = true;
        // A first line alone over the budget still shows its prefix.
        if (picked.length === 0) picked.push(cutToBytes(lines[n]!, READ_BUDGET_BYTES));
        break;
      }
      picked.push(lines[n]!);
      used += cost;
    }
    const last = offset + picked.length;
    const range = picked.length ? `${offset + 1}-${last}` : "none";
    const header = `ARTIFACT_RESULT lines=${range} total=${total} sha256=${digest}${cut ? ` truncated=budget requested_lines=${offset + 1}-${end}` : ""}`;
    // What the view shows: the artifact's lines, numbered by the card.
    const view = (notes: string[] = []): ToolDisplay => ({
      kind: "file",
      path: byPath || byAlias,
      startLine: offset + 1,
      lines: picked,
      totalLines: total,
      ...(notes.length ? { notes } : {}),
    });
    if (!picked.length) return ok(`${header}\n`, view(["no lines"]));
    // The text exactly as stored: every shown line's end, the last one's only when the artifact has it.
    const lastEnds = !cut && (last < total || lf.endsWith("\n"));
    const body = picked.join("\n") + (lastEnds ? "\n" : "");
    if (!cut) return ok(`${header}\n${body}`, view());
    // How to go on is for the card only: the model's text is the artifact's own.
    const next = picked.length === 1 && Buffer.byteLength(lines[offset]!) > READ_BUDGET_BYTES ? offset + 1 : last;
    const rest =
      next < total
        ? `Lines past ${next} were not shown: read_artifact with offset=${next + 1} continues.`
        : "The rest of this line is longer than one read returns; search the artifact through the shell instead.";
    return ok(`${header}\n${body}`, view([rest]));
  },
};
