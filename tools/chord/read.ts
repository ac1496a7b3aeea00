// Chord `read` (digest §2.1): a `READ_RESULT lines=a-b total=N` header, then the
// raw LF-normalised text with no line-number gutter. offset/limit are 1-based
// line paging (limit defaults to 2000); the inline text is capped at
// min(50 KiB, 60000 bytes) and a cut is reported as `truncated=budget`.
// A complete, untruncated read is recorded for write gating. Text that is
// not UTF-8 (BOM Unicode, GB18030, Big5, Shift-JIS) is decoded and named in
// the header as `encoding="<name>"`; see chord-decode.ts.

import { z } from "zod";
import { fail, ok, type ToolHandler } from "../../core/tool-types.js";
import { locateFile } from "./locate-file.js";
import { decodeForChord, type ChordDecoded } from "../lib/chord-decode.js";
import { splitLines } from "../lib/text-file.js";
import { noteCompleteRead, sha256 } from "./observations.js";

export const chordReadSchema = z.object({
  path: z.string(),
  offset: z.number().int().optional(),
  limit: z.number().int().optional(),
});

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_FILE_BYTES = 50 * 1024 * 1024;
export const READ_BUDGET_BYTES = Math.min(50 * 1024, 60000);

export const chordReadTool: ToolHandler<typeof chordReadSchema> = {
  id: "chord_read",
  schema: chordReadSchema,
  readOnly: true,
  async run(args, ctx) {
    if (args.path.trim() === "") return fail("path is required");
    // 0 is tolerated as "from the start" (and is EOF of an empty file).
    const offset = args.offset ?? 1;
    const limit = args.limit ?? READ_DEFAULT_LIMIT;
    if (offset < 0) return fail(`offset must be >= 1 (1-based line number), got ${offset}`);
    if (limit < 1) return fail(`limit must be >= 1, got ${limit}`);
    const first = Math.max(offset, 1);

    const { fs } = ctx.services;
    const shown = args.path;
    const where = await locateFile(ctx, args.path, `${shown} is a directory; use glob to list its files`);
    if (!where.ok) return fail(where.error);
    const { size } = where;
    if (size > READ_MAX_FILE_BYTES) {
      return fail(
        `file too large (${size} bytes, max ${READ_MAX_FILE_BYTES}); use offset/limit to read a portion or grep to search`,
      );
    }

    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(where.abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EACCES") return fail(`permission denied: ${shown}`);
      return fail(`cannot read ${shown}: ${(err as Error).message}`);
    }
    const decoded = decodeForChord(bytes);
    if (!decoded.ok) return fail(undecodableText(shown, decoded));

    // CRLF and lone CRs alike become LF: the model always sees LF text.
    const lines = splitLines(decoded.text.replace(/\r\n?/g, "\n"));
    const total = lines.length;

    if (first > total + 1 || (total === 0 && first > 1)) {
      if (total === 0) {
        return fail(`offset ${offset} exceeds file length (0 lines); suggested_offset=0 (EOF; file is empty)`);
      }
      const k = Math.min(limit, total);
      const suggested = total - k + 1;
      return fail(
        `offset ${offset} exceeds file length (${total} lines); suggested_offset=${suggested} ` +
          `reads the last ${k} lines with limit=${k}; eof_offset=${total + 1} is valid but returns no lines`,
      );
    }

    const requestedEnd = Math.min(first + limit - 1, total);
    const picked: string[] = [];
    let used = 0;
    let budgetCut = false;
    for (let n = first; n <= requestedEnd; n++) {
      const line = lines[n - 1]!;
      const cost = Buffer.byteLength(line, "utf8") + (picked.length ? 1 : 0);
      if (used + cost > READ_BUDGET_BYTES) {
        budgetCut = true;
        if (picked.length === 0) picked.push(cutToBytes(line, READ_BUDGET_BYTES));
        break;
      }
      picked.push(line);
      used += cost;
    }

    if (picked.length === 0) {
      if (first === 1) noteCompleteRead(ctx.sessionDir, where.abs, sha256(bytes));
      return ok(`READ_RESULT lines=none total=${total}${decoded.encoding ? ` encoding="${decoded.encoding}"` : ""}`);
    }
    const last = first + picked.length - 1;
    let header = `READ_RESULT lines=${first}-${last} total=${total}`;
    if (budgetCut) header += ` truncated=budget requested_lines=${first}-${requestedEnd}`;
    if (decoded.encoding) header += ` encoding="${decoded.encoding}"`;
    if (!budgetCut && first === 1 && last === total) noteCompleteRead(ctx.sessionDir, where.abs, sha256(bytes));
    return ok(`${header}\n${picked.join("\n")}`);
  },
};

function undecodableText(shown: string, d: Exclude<ChordDecoded, { ok: true }>): string {
  if (d.reason === "binary") return `cannot read binary file: ${shown}`;
  if (d.reason === "ambiguous") {
    return (
      `cannot read ${shown}: not UTF-8, and its text encoding cannot be told apart (candidates: ${d.candidates.join(", ")}); ` +
      "convert it to UTF-8 first (e.g. iconv in the shell)"
    );
  }
  return `cannot read ${shown}: unsupported text encoding (supported: UTF-8, UTF-16/UTF-32 with a BOM, GB18030, Big5, Shift-JIS)`;
}

/** The longest prefix of `text` that fits in `max` UTF-8 bytes, cut on a character boundary. */
function cutToBytes(text: string, max: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}
