// Reading a window of lines from a text file of any size without loading it:
// the file is read in fixed chunks, line ends are found with indexOf, and
// only the bytes of the lines asked for are kept. Memory stays at one chunk
// plus those lines, whether the file holds ten lines or 500 MB.
//
// Every chunk that is read is checked as UTF-8 (a sequence cut by the chunk
// end is carried into the next one) and for NUL, so a small file is judged
// exactly as a whole-file decode would judge it; a large one only in the part
// the scan had to read. A UTF-8 BOM at the start is not part of line 1.

import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import type { FileSystem } from "../../core/services.js";

export const SCAN_CHUNK_BYTES = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export interface LineWindow {
  /** 0-based index of the first line wanted. */
  from: number;
  /** How many lines from `from`; Infinity for all the rest. */
  count: number;
  /** Read to the end even after the window, to count every line (`total`). */
  toEnd: boolean;
  /** A lone CR ends a line as LF and CRLF do; otherwise one CR before LF is dropped. */
  loneCrEndsLine: boolean;
  /**
   * Most bytes of line text kept (a newline between lines counts one). The
   * line that crosses it is kept cut at the limit; later ones are not kept.
   */
  maxKeptBytes: number;
  /** Stop as soon as the window is cut (the caller refuses the read then). */
  stopWhenCut?: boolean;
  /** Also return the sha256 of the whole file (needs `toEnd`). */
  hash?: boolean;
}

export type LineScan =
  | {
      ok: true;
      /** The kept lines of the window, in order, without their line ends. */
      lines: string[];
      /** Some of the window was not kept: the last kept line is cut at `maxKeptBytes`, or lines after it are missing. */
      cut: boolean;
      /** Every line, when the scan reached the end of the file. */
      total?: number;
      /** A line follows the window. */
      more: boolean;
      sha256?: string;
    }
  | { ok: false; reason: "binary" | "not_utf8" };

/** Bytes at the end of `buf[0, len)` that begin a UTF-8 sequence the chunk cut off. */
function cutSequence(buf: Buffer, len: number): number {
  for (let back = 1; back <= Math.min(4, len); back++) {
    const b = buf[len - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

class Collector {
  lines: string[] = [];
  cut = false;
  private pieces: Buffer[] = [];
  private kept = 0;
  private lineOpen = false;

  constructor(private readonly max: number, private readonly dropCr: boolean) {}

  /** Part of the current wanted line. Copies: the chunk buffer is reused. */
  add(buf: Buffer, start: number, end: number): void {
    if (this.cut) return;
    if (!this.lineOpen) {
      const separator = this.lines.length > 0 ? 1 : 0;
      if (this.kept + separator > this.max) {
        this.cut = true;
        return;
      }
      this.kept += separator;
      this.lineOpen = true;
    }
    const take = Math.min(end - start, this.max - this.kept);
    if (take > 0) this.pieces.push(Buffer.from(buf.subarray(start, start + take)));
    this.kept += take;
    if (take < end - start) this.cut = true;
  }

  /** `byLf`: the line ended with LF (and a CR just before it is part of that line end). */
  endLine(byLf: boolean): void {
    if (!this.lineOpen) return;
    let bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    if (byLf && this.dropCr && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
    this.lines.push(bytes.toString("utf8"));
    this.pieces = [];
    this.lineOpen = false;
  }
}

/** Scans `abs` for the lines of `want`; see LineWindow for what is kept and counted. */
export async function scanLines(fs: FileSystem, abs: string, want: LineWindow): Promise<LineScan> {
  const handle = await fs.open(abs, "r");
  try {
    return await scan(handle, want);
  } finally {
    await handle.close();
  }
}

async function scan(handle: Awaited<ReturnType<FileSystem["open"]>>, want: LineWindow): Promise<LineScan> {
  const end = want.from + want.count;
  const hash = want.hash ? createHash("sha256") : undefined;
  const out = new Collector(want.maxKeptBytes, !want.loneCrEndsLine);
  const buf = Buffer.allocUnsafe(SCAN_CHUNK_BYTES + 4);
  let carry = 0; // bytes of a cut UTF-8 sequence at buf[0, carry)
  let line = 0; // index of the line being read
  let atLineStart = true;
  let afterCr = false; // the previous chunk ended with a CR that ended a line
  let first = true;

  for (;;) {
    const { bytesRead } = await handle.read(buf, carry, SCAN_CHUNK_BYTES, null);
    const eof = bytesRead === 0;
    if (!eof) hash?.update(buf.subarray(carry, carry + bytesRead));
    const len = carry + bytesRead;
    const next = eof ? 0 : cutSequence(buf, len);
    const stop = len - next;
    if (buf.subarray(0, stop).includes(0)) return { ok: false, reason: "binary" };
    if (!isUtf8(buf.subarray(0, eof ? len : stop))) return { ok: false, reason: "not_utf8" };
    if (eof) break;

    let pos = 0;
    if (first) {
      first = false;
      if (stop >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) pos = 3;
    }
    if (afterCr && pos < stop && buf[pos] === LF) pos++;
    afterCr = false;
    const crs = want.loneCrEndsLine && buf.subarray(pos, stop).includes(CR);
    let nextCr = crs ? buf.indexOf(CR, pos) : -1;
    let nextLf = buf.indexOf(LF, pos);

    while (pos < stop) {
      if (line >= end && !want.toEnd) {
        return { ok: true, lines: out.lines, cut: out.cut, more: true };
      }
      if (nextLf >= stop) nextLf = -1;
      if (nextCr >= stop) nextCr = -1;
      const brk = nextCr >= 0 && (nextLf < 0 || nextCr < nextLf) ? nextCr : nextLf;
      const lineEnd = brk < 0 ? stop : brk;
      const wanted = line >= want.from && line < end;
      if (wanted) out.add(buf, pos, lineEnd);
      if (brk < 0) {
        atLineStart = pos === stop ? atLineStart : false;
        pos = stop;
        break;
      }
      if (wanted) out.endLine(brk === nextLf);
      line++;
      atLineStart = true;
      pos = brk + 1;
      if (brk === nextCr) {
        if (pos < stop && buf[pos] === LF) pos++;
        else if (pos === stop) afterCr = true;
        nextCr = buf.indexOf(CR, pos);
        if (nextLf >= 0 && nextLf < pos) nextLf = buf.indexOf(LF, pos);
      } else {
        nextLf = buf.indexOf(LF, pos);
      }
      if (out.cut && want.stopWhenCut) return { ok: true, lines: out.lines, cut: true, more: false };
    }
    if (out.cut && want.stopWhenCut) return { ok: true, lines: out.lines, cut: true, more: false };
    buf.copy(buf, 0, stop, len);
    carry = next;
  }

  // The last line had no line end: it still counts, and ends here.
  if (!atLineStart) {
    if (line >= want.from && line < end) out.endLine(false);
    line++;
  }
  return { ok: true, lines: out.lines, cut: out.cut, total: line, more: false, sha256: hash?.digest("hex") };
}
