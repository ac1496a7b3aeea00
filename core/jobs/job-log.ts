// One command's (or terminal's) output on disk: redacted on its way in, and
// capped. Past the cap the first half stays and only the newest output is
// kept, in two tail files that take turns: when the current one is full the
// older one is emptied and becomes the current one, so at most cap/2 bytes of
// tail are ever on disk. When the stream ends the tail is appended to the log
// after a line that says how many bytes were dropped, and the tail files go.
//
// Offsets everywhere are offsets in the stream as written (after redaction),
// so a reader can ask for any range it saw and learn which parts of it are
// still kept. Writes are synchronous: the caller reads the pipe no faster
// than the disk takes it, so memory stays flat however much a command prints.

import * as fs from "node:fs";
import { createStreamRedactor, type StreamRedactor } from "../redact.js";

export interface LogRange {
  from: number;
  to: number;
}

/** Read access to a log by stream offsets. */
export interface LogReader {
  readonly path: string;
  /** Bytes of the stream so far. */
  readonly size: number;
  /** Newlines among them (so line counts never re-read the file). */
  readonly newlines: number;
  /** The parts of [from, to) still on disk, in order. */
  kept(from: number, to: number): LogRange[];
  /** The kept bytes of [from, to), joined (a caller asks kept() where the gaps are). */
  read(from: number, to: number): Buffer;
}

export interface JobLogOptions {
  /** Bytes kept on disk at most ([output].max_job_log_bytes). */
  maxBytes: number;
  /** Values to hide from the log (see redact.ts). */
  secrets?: readonly string[];
}

/** [output].max_job_log_bytes unless configured. */
export const DEFAULT_MAX_LOG_BYTES = 64 * 1024 * 1024;

/** Room left for the line that marks the drop, inside the cap. */
const MARKER_RESERVE = 512;

interface Piece {
  /** Stream offset of the first byte. */
  start: number;
  length: number;
  file: string;
  /** Where the piece starts in its file. */
  offset: number;
}

interface TailFile extends Piece {
  fd: number;
}

function droppedLine(dropped: number, maxBytes: number): string {
  return `\n[... ${dropped} bytes of output dropped here: the log keeps the first and the last part, [output].max_job_log_bytes = ${maxBytes} ...]\n`;
}

export class JobLog implements LogReader {
  size = 0;
  newlines = 0;
  /** Set when a write failed (a full disk): what came after is counted but not kept. */
  writeError: string | undefined;
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly redactor: StreamRedactor;
  private fd: number | undefined;
  private head: Piece;
  private tails: TailFile[] = [];
  /** The tail once it is appended to the log for good. */
  private finalTail: Piece | undefined;

  constructor(
    readonly path: string,
    private readonly opts: JobLogOptions,
  ) {
    this.headMax = Math.floor((opts.maxBytes - MARKER_RESERVE) / 2);
    // Two tail files of tailMax each: the older is emptied when the newer fills.
    this.tailMax = Math.floor((opts.maxBytes - MARKER_RESERVE - this.headMax) / 2);
    this.redactor = createStreamRedactor(opts.secrets ?? []);
    this.fd = fs.openSync(path, "a");
    this.head = { start: 0, length: 0, file: path, offset: 0 };
  }

  get ended(): boolean {
    return this.fd === undefined;
  }

  /** Takes output as it arrives. Never throws: a failed write is recorded in writeError. */
  append(chunk: Buffer): void {
    if (this.ended) return;
    this.store(this.redactor.push(chunk));
  }

  /** The stream has ended: writes what redaction held back and puts the tail in place. */
  end(): void {
    if (this.ended) return;
    this.store(this.redactor.flush());
    this.guard(() => this.settleTail());
    for (const t of this.tails) closeQuietly(t.fd);
    for (const t of this.tails) fs.rmSync(t.file, { force: true });
    this.tails = [];
    closeQuietly(this.fd!);
    this.fd = undefined;
  }

  kept(from: number, to: number): LogRange[] {
    const out: LogRange[] = [];
    for (const p of this.pieces()) {
      const a = Math.max(from, p.start);
      const b = Math.min(to, p.start + p.length);
      if (a >= b) continue;
      const last = out.at(-1);
      if (last && last.to === a) last.to = b;
      else out.push({ from: a, to: b });
    }
    return out;
  }

  read(from: number, to: number): Buffer {
    const parts: Buffer[] = [];
    for (const p of this.pieces()) {
      const a = Math.max(from, p.start);
      const b = Math.min(to, p.start + p.length);
      if (a < b) parts.push(readAt(p.file, p.offset + (a - p.start), b - a));
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  private pieces(): Piece[] {
    return [this.head, ...(this.finalTail ? [this.finalTail] : this.tailsInOrder())];
  }

  private tailsInOrder(): Piece[] {
    return [...this.tails].sort((a, b) => a.start - b.start);
  }

  private store(buf: Buffer): void {
    if (buf.length === 0) return;
    this.newlines += countNewlines(buf);
    const start = this.size;
    this.size += buf.length;
    if (this.writeError) return;
    this.guard(() => {
      let rest = buf;
      let at = start;
      const room = this.headMax - this.head.length;
      if (room > 0 && this.tails.length === 0) {
        const part = rest.subarray(0, room);
        this.head.length += writeAll(this.fd!, part);
        rest = rest.subarray(part.length);
        at += part.length;
      }
      while (rest.length > 0) {
        const tail = this.currentTail(at);
        const part = rest.subarray(0, this.tailMax - tail.length);
        tail.length += writeAll(tail.fd, part, tail.length);
        rest = rest.subarray(part.length);
        at += part.length;
      }
    });
  }

  /** The tail file to write at stream offset `at`: a fresh one when the current one is full. */
  private currentTail(at: number): TailFile {
    const current = this.tails.find((t) => t.start + t.length === at && t.length < this.tailMax);
    if (current) return current;
    if (this.tails.length < 2) {
      const file = `${this.path}.tail${this.tails.length + 1}`;
      const t: TailFile = { start: at, length: 0, file, offset: 0, fd: fs.openSync(file, "w+") };
      this.tails.push(t);
      return t;
    }
    // Both are full: the older one's bytes are dropped and it starts again.
    const older = this.tailsInOrder()[0] as TailFile;
    fs.ftruncateSync(older.fd, 0);
    older.start = at;
    older.length = 0;
    return older;
  }

  /** Appends the kept tail to the log, after the drop line when bytes were dropped. */
  private settleTail(): void {
    const tails = this.tailsInOrder() as TailFile[];
    if (tails.length === 0) return;
    const tailStart = tails[0]!.start;
    const dropped = tailStart - this.head.length;
    const marker = dropped > 0 ? Buffer.from(droppedLine(dropped, this.opts.maxBytes)) : Buffer.alloc(0);
    // Readers see the tail where it ends up, as far as it got (a full disk may stop the copy).
    const final: Piece = { start: tailStart, length: 0, file: this.path, offset: this.head.length + marker.length };
    this.finalTail = final;
    writeAll(this.fd!, marker);
    for (const t of tails) final.length += copyInto(t.fd, t.length, this.fd!);
  }

  private guard(write: () => void): void {
    try {
      write();
    } catch (err) {
      this.writeError ??= (err as Error).message;
    }
  }
}

/** A whole plain file as a log (output written by something else, tests). */
export function fileReader(path: string): LogReader {
  const size = (() => {
    try {
      return fs.statSync(path).size;
    } catch {
      return 0;
    }
  })();
  return {
    path,
    size,
    get newlines() {
      return countNewlines(readAt(path, 0, size));
    },
    kept: (from, to) => (Math.min(to, size) > from ? [{ from, to: Math.min(to, size) }] : []),
    read: (from, to) => readAt(path, from, Math.min(to, size) - from),
  };
}

/**
 * Newlines in `buf`, four bytes at a time: a command printing short lines at
 * full speed must not make counting them the slow part of reading its output.
 */
function countNewlines(buf: Buffer): number {
  let n = 0;
  let i = 0;
  while (i < buf.length && ((buf.byteOffset + i) & 3) !== 0) if (buf[i++] === 10) n++;
  const words = new Uint32Array(buf.buffer, buf.byteOffset + i, (buf.length - i) >>> 2);
  for (let k = 0; k < words.length; k++) {
    const x = words[k]! ^ 0x0a0a0a0a; // a newline byte becomes a zero byte
    // High bit set exactly in the zero bytes (no carries between bytes).
    const zeros = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080;
    if (zeros !== 0) n += bitCount(zeros);
  }
  for (i += words.length * 4; i < buf.length; i++) if (buf[i] === 10) n++;
  return n;
}

function bitCount(v: number): number {
  let x = v - ((v >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function readAt(file: string, position: number, length: number): Buffer {
  if (length <= 0) return Buffer.alloc(0);
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(length);
    const n = fs.readSync(fd, buf, 0, length, position);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes all of `buf` at `position` (a tail file, rewritten from 0 when it starts again), or appended. */
function writeAll(fd: number, buf: Buffer, position: number | null = null): number {
  let done = 0;
  while (done < buf.length) {
    done += fs.writeSync(fd, buf, done, buf.length - done, position === null ? null : position + done);
  }
  return done;
}

const COPY_CHUNK = 1 << 20;

/** Appends the first `length` bytes of `from` to `to`, a chunk at a time. */
function copyInto(from: number, length: number, to: number): number {
  const buf = Buffer.alloc(Math.min(COPY_CHUNK, Math.max(1, length)));
  let copied = 0;
  while (copied < length) {
    const n = fs.readSync(from, buf, 0, Math.min(buf.length, length - copied), copied);
    if (n === 0) break;
    copied += writeAll(to, buf.subarray(0, n));
  }
  return copied;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
}
