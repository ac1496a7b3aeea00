// Chord `read`: a `READ_RESULT lines=a-b total=N` header line, then the file's
// text exactly as it is (line ends as LF, the final newline only when the
// file has one), no line-number gutter, so the model can copy it into an
// edit. offset/limit are 1-based line paging (limit defaults to 2000); the
// inline text is capped at min(50 KiB, 60000 bytes). A cut is reported as
// `truncated=budget` and the whole requested range is saved in the session,
// named in the result (read and grep open it). A first line longer than the
// budget still shows its prefix. A complete, untruncated read is recorded for
// write gating; any read records the version seen, for edit's drift warning. Text that is not UTF-8 (BOM Unicode, GB18030, Big5,
// Shift-JIS) is decoded and named in the header as `encoding="<name>"`.

import { z } from "zod";
import { fail, INSPECTS, ok, type ToolContext, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { locateFile } from "../lib/chord/locate-file.js";
import { decodeForChord, unicodeBom, type ChordDecoded } from "../lib/chord/decode.js";
import { GO_SOURCE_NOT_UTF8 } from "../lib/chord/encode.js";
import { MAX_LOADED_FILE_BYTES, sizeAndLimit, tooLarge } from "../lib/file-limits.js";
import { scanLines } from "../lib/line-scan.js";
import { checkedReads } from "../lib/pinned-fs.js";
import { splitLines } from "../lib/text-file.js";
import { noteCompleteRead, noteSeen, sha256 } from "../lib/chord/observations.js";
import { saveFullOutput } from "../lib/saved-output.js";
import { noteReadForRetry } from "../lib/chord/retry-memory.js";
import { num, rangeSummary, shownPath, str } from "../lib/view.js";

export const chordReadSchema = z.object({
  path: z.string(),
  offset: z.number().int().optional(),
  limit: z.number().int().optional(),
});

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_FILE_BYTES = MAX_LOADED_FILE_BYTES;
export const READ_BUDGET_BYTES = Math.min(50 * 1024, 60000);

export const chordReadTool: ToolHandler<typeof chordReadSchema> = {
  id: "chord_read",
  schema: chordReadSchema,
  effects: INSPECTS,
  touches: (args) => [{ path: args.path, as: "reads" }],
  permissions: { family: "read" },
  view: {
    card: "foldable",
    summary: (args, facts) => rangeSummary(shownPath(str(args, "path") ?? "", facts.cwd), num(args, "offset") ?? 0, num(args, "limit") ?? 0),
  },
  async run(args, ctx) {
    if (args.path.trim() === "") return fail("path is required");
    // 0 is tolerated as "from the start" (and is EOF of an empty file).
    const offset = args.offset ?? 1;
    const limit = args.limit ?? READ_DEFAULT_LIMIT;
    if (offset < 0) return fail(`offset must be >= 1 (1-based line number), got ${offset}`);
    if (limit < 1) return fail(`limit must be >= 1, got ${limit}`);
    const first = Math.max(offset, 1);

    const shown = args.path;
    const where = await locateFile(ctx, args.path, `${shown} is a directory; use glob to list its files`);
    if (!where.ok) return fail(where.error);
    const { size } = where;
    const paged = args.offset !== undefined || args.limit !== undefined;
    if (tooLarge(size) && !paged) {
      return fail(`file too large ${sizeAndLimit(size)}; use offset/limit to read a portion or grep to search`);
    }

    const text = await windowOf(ctx, where.abs, shown, size, first, limit);
    if (!text.ok) return fail(text.error);
    const { lines, total, encoding } = text;

    if (first > total + 1 || (total === 0 && first > 1)) {
      if (total === 0) {
        return fail(`offset ${offset} exceeds this file length (0 lines); the file is empty, so read from offset 1 (or omit it) to get an empty result`);
      }
      const k = Math.min(limit, total);
      const suggested = total - k + 1;
      return fail(
        `offset ${offset} exceeds this file length (${total} lines); suggested_offset=${suggested} ` +
          `reads the last ${k} lines with limit=${limit}; eof_offset=${total + 1} is valid but returns no lines`,
      );
    }

    const requestedEnd = Math.min(first + limit - 1, total);
    const picked = withinBudget(lines, requestedEnd - first + 1);
    const budgetCut = picked.cut;
    // What the view shows: the lines themselves, numbered by the card.
    const view = (shownLines: string[], notes: string[] = []): ToolDisplay => ({
      kind: "file",
      path: shownPath(where.abs, ctx.cwd),
      startLine: first,
      lines: shownLines,
      totalLines: total,
      ...(notes.length ? { notes } : {}),
    });

    noteReadForRetry(ctx.memory, where.abs);
    if (picked.lines.length === 0) {
      if (first === 1) noteCompleteRead(ctx.memory, where.abs, text.sha256!);
      else noteSeen(ctx.memory, where.abs, text.sha256!);
      return ok(`READ_RESULT lines=none total=${total}${encoding ? ` encoding="${encoding}"` : ""}\n`, view([], ["no lines"]));
    }
    const last = first + picked.lines.length - 1;
    const reachesEnd = last === total && !budgetCut;
    const body = exactText(picked.lines, !budgetCut && (last < total || text.finalNewline));
    let header = `READ_RESULT lines=${first}-${last} total=${total}`;
    if (budgetCut) header += ` truncated=budget requested_lines=${first}-${requestedEnd}`;
    if (encoding) header += ` encoding="${encoding}"`;
    if (reachesEnd && first === 1) noteCompleteRead(ctx.memory, where.abs, text.sha256!);
    else noteSeen(ctx.memory, where.abs, text.sha256!);
    if (!budgetCut) return ok(`${header}\n${body}`, view(picked.lines));

    // The whole requested range is kept in the session, where read and grep can open it.
    const full = await windowOf(ctx, where.abs, shown, size, first, limit, READ_MAX_FILE_BYTES);
    if (!full.ok) return ok(`${header}\n${body}`, view(picked.lines, [`cut at the read budget after line ${last}`]));
    const fullEnd = first + full.lines.length - 1;
    const saved = await saveFullOutput(
      ctx,
      "read-result",
      `READ_RESULT lines=${first}-${fullEnd} total=${total}${encoding ? ` encoding="${encoding}"` : ""}\n` +
        exactText(full.lines, fullEnd < total || full.finalNewline),
    ).catch(() => undefined);
    const note = saved
      ? `Full output saved to ${saved}. Read it with offset/limit or grep it for the rest.`
      : `Lines past ${last} were not shown; read them with offset=${last + 1}.`;
    return ok(`${header}\n${body}${body.endsWith("\n") ? "" : "\n"}${note}`, view(picked.lines, [note]));
  },
};

/**
 * The leading lines of the window that fit the inline budget, a newline
 * after each counted. A first line that alone is over the budget is still
 * shown, cut to the budget: a prefix tells the model more than nothing.
 */
function withinBudget(lines: readonly string[], wanted: number): { lines: string[]; cut: boolean } {
  const picked: string[] = [];
  let used = 0;
  for (let i = 0; i < Math.min(wanted, lines.length); i++) {
    const line = lines[i]!;
    const cost = Buffer.byteLength(line, "utf8") + 1;
    if (used + cost > READ_BUDGET_BYTES) {
      if (picked.length === 0) picked.push(cutToBytes(line, READ_BUDGET_BYTES));
      return { lines: picked, cut: true };
    }
    picked.push(line);
    used += cost;
  }
  return { lines: picked, cut: lines.length < wanted };
}

/** The lines as the file holds them (LF line ends), with the last one's end only when it has one. */
function exactText(lines: readonly string[], lastEnds: boolean): string {
  return lines.join("\n") + (lastEnds ? "\n" : "");
}

type Window =
  | { ok: true; lines: string[]; total: number; encoding?: string; sha256?: string; finalNewline: boolean }
  | { ok: false; error: string };

/**
 * The lines first..first+limit-1 (1-based) and the file's line count. UTF-8
 * text is streamed, keeping little more than the inline budget however large
 * the file; any other text (a BOM encoding, a legacy charset) needs the
 * whole file to decode, so only a file within the size limit can be shown.
 * The hash is of the whole file, whichever lines are shown: a paged read
 * still tells edit and apply_patch which version the model saw.
 */
async function windowOf(
  ctx: ToolContext,
  abs: string,
  shown: string,
  size: number,
  first: number,
  limit: number,
  // A byte over the budget is enough to see that a line does not fit.
  maxKeptBytes = READ_BUDGET_BYTES + 4,
): Promise<Window> {
  // Read as checked: a link swapped in since the path was resolved is refused, not followed.
  const fs = checkedReads(ctx.services.fs);
  try {
    const scan = await scanLines(fs, abs, {
      from: first - 1,
      count: limit,
      toEnd: true,
      loneCrEndsLine: true,
      maxKeptBytes,
      hash: true,
    });
    if (scan.ok) {
      return { ok: true, lines: scan.lines, total: scan.total!, sha256: scan.sha256, finalNewline: await endsWithLineEnd(fs, abs, size) };
    }
    if (tooLarge(size)) {
      if (scan.reason === "binary" && !unicodeBom(await head(fs, abs))) return { ok: false, error: `cannot read binary file: ${shown}` };
      return {
        ok: false,
        error:
          `cannot read ${shown}: it is not UTF-8, and text in another encoding is only decoded whole, which this file ` +
          `is too large for ${sizeAndLimit(size)}; convert it to UTF-8 first (e.g. iconv in the shell), or grep to search`,
      };
    }
    const bytes = await fs.readFile(abs);
    const decoded = decodeForChord(bytes, abs);
    if (!decoded.ok) return { ok: false, error: undecodableText(shown, decoded) };
    // CRLF and lone CRs alike become LF: the model always sees LF text.
    const lf = decoded.text.replace(/\r\n?/g, "\n");
    const all = splitLines(lf);
    return {
      ok: true,
      finalNewline: lf.endsWith("\n"),
      lines: all.slice(first - 1, first - 1 + limit),
      total: all.length,
      encoding: decoded.encoding,
      sha256: sha256(bytes),
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EACCES") return { ok: false, error: `permission denied: ${shown}` };
    return { ok: false, error: `cannot read ${shown}: ${(err as Error).message}` };
  }
}

/** The file's last byte is a line end (LF, or the CR of a CR-only file). */
async function endsWithLineEnd(fs: ToolContext["services"]["fs"], abs: string, size: number): Promise<boolean> {
  if (size === 0) return false;
  const handle = await fs.open(abs, "r");
  try {
    const buf = Buffer.alloc(1);
    await handle.read(buf, 0, 1, size - 1);
    return buf[0] === 0x0a || buf[0] === 0x0d;
  } finally {
    await handle.close();
  }
}

async function head(fs: ToolContext["services"]["fs"], abs: string): Promise<Uint8Array> {
  const handle = await fs.open(abs, "r");
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await handle.read(buf, 0, 4, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function undecodableText(shown: string, d: Exclude<ChordDecoded, { ok: true }>): string {
  if (d.reason === "binary") return `cannot read binary file: ${shown}`;
  if (d.reason === "ambiguous") {
    return (
      `cannot read ${shown}: not UTF-8, and its text encoding cannot be told apart (candidates: ${d.candidates.join(", ")}); ` +
      "convert it to UTF-8 first (e.g. iconv in the shell)"
    );
  }
  if (d.reason === "go_source") return `cannot read ${shown}: ${GO_SOURCE_NOT_UTF8}`;
  return `cannot read ${shown}: unsupported text encoding (supported: UTF-8, UTF-16/UTF-32 with a BOM, GB18030, Big5, Shift-JIS)`;
}

/** The longest prefix of `text` that fits in `max` UTF-8 bytes, cut on a character boundary. */
export function cutToBytes(text: string, max: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}
