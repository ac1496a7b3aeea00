// A job's output lives in one file on disk that the kernel appends to
// directly. These helpers read only the byte ranges they need (never the
// whole file, which may hold gigabytes) and turn bytes into text fit for a
// model: escapes and control characters stripped, a bounded head + tail
// preview with an exact count of what was left out.

import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import stripAnsi from "strip-ansi";

/** Current size of the file in bytes; 0 when it does not exist. */
export function fileSize(path: string): number {
  try {
    return fs.statSync(path).size;
  } catch {
    return 0;
  }
}

/** Bytes [from, to) of the file, synchronously (meant for small ranges). */
export function readRangeSync(path: string, from: number, to: number): Buffer {
  const len = Math.max(0, to - from);
  if (len === 0) return Buffer.alloc(0);
  const fd = fs.openSync(path, "r");
  try {
    const buf = Buffer.alloc(len);
    const n = fs.readSync(fd, buf, 0, len, from);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Bytes [from, to) of the file. */
export async function readRange(path: string, from: number, to: number): Promise<Buffer> {
  const len = Math.max(0, to - from);
  if (len === 0) return Buffer.alloc(0);
  const handle = await fsp.open(path, "r");
  try {
    const buf = Buffer.alloc(len);
    const { bytesRead } = await handle.read(buf, 0, len, from);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isContinuation = (b: number) => (b & 0xc0) === 0x80;

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 1; // invalid lead byte: decodes to U+FFFD on its own
}

/**
 * Length of `buf` without a UTF-8 sequence cut off at its end, so a read
 * that stops mid-character leaves those bytes for the next read instead of
 * turning them into two U+FFFD.
 */
export function completeLength(buf: Uint8Array): number {
  const end = buf.length;
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const b = buf[i]!;
    if (isContinuation(b)) continue;
    return sequenceLength(b) > end - i ? i : end;
  }
  return end;
}

/** Index of the first byte at or after `i` that starts a character. */
function charStartForward(buf: Uint8Array, i: number): number {
  let j = i;
  while (j < buf.length && j < i + 3 && isContinuation(buf[j]!)) j++;
  return j;
}

/**
 * Model-ready text: \r\n becomes \n, terminal escapes go (strip-ansi), and
 * every other control character except \n and \t is dropped, C1 included.
 */
export function cleanText(text: string): string {
  const stripped = stripAnsi(text.replace(/\r\n/g, "\n"));
  // eslint-disable-next-line no-control-regex
  return stripped.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}

/** Bytes to text; invalid UTF-8 becomes U+FFFD. */
export function decode(buf: Uint8Array): string {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("utf8");
}

export interface Preview {
  text: string;
  /** Raw bytes of the range shown at the start and at the end. */
  headBytes: number;
  tailBytes: number;
  /** Raw bytes left out between them: headBytes + omittedBytes + tailBytes = to - from. */
  omittedBytes: number;
}

/** The line that stands in for the bytes left out of a preview. */
export function omissionLine(omitted: number, path: string): string {
  return `[... ${omitted} bytes omitted; full output: ${path} ...]`;
}

/**
 * Text of bytes [from, to) of the file, at most about `budget` bytes of it:
 * all of it when it fits, else a head and a tail of about half the budget
 * each, cut at line boundaries where one is near, around a line that says
 * exactly how many bytes were left out and where the full output is.
 */
export async function previewRange(path: string, from: number, to: number, budget: number): Promise<Preview> {
  const total = Math.max(0, to - from);
  if (total <= budget) {
    const buf = await readRange(path, from, to);
    return { text: cleanText(decode(buf)), headBytes: buf.length, tailBytes: 0, omittedBytes: total - buf.length };
  }
  const half = Math.max(1, Math.floor(budget / 2));
  const head = await readRange(path, from, from + half);
  const tail = await readRange(path, to - half, to);

  // Prefer ending the head after a newline, if that keeps at least half of it.
  const nl = head.lastIndexOf(0x0a);
  const headBytes = nl >= half / 2 ? nl + 1 : completeLength(head);
  // Prefer starting the tail at a line start, under the same condition.
  const firstNl = tail.indexOf(0x0a);
  const tailStart = firstNl >= 0 && firstNl < half / 2 ? firstNl + 1 : charStartForward(tail, 0);
  const tailBytes = tail.length - tailStart;
  const omittedBytes = total - headBytes - tailBytes;

  const headText = cleanText(decode(head.subarray(0, headBytes)));
  const tailText = cleanText(decode(tail.subarray(tailStart)));
  const sep = headText === "" || headText.endsWith("\n") ? "" : "\n";
  const text = `${headText}${sep}${omissionLine(omittedBytes, path)}\n${tailText}`;
  return { text, headBytes, tailBytes, omittedBytes };
}

/**
 * Text for a live output event: the bytes [from, to), or only their last
 * `max` bytes when more arrived (the view shows the newest lines).
 */
export function tailTextSync(path: string, from: number, to: number, max: number): string {
  const start = Math.max(from, to - max);
  const buf = readRangeSync(path, start, to);
  const skip = start > from ? charStartForward(buf, 0) : 0;
  return cleanText(decode(buf.subarray(skip)));
}

/**
 * Where a read of [from, to) should stop so it does not split a UTF-8
 * character still being written: `to`, or up to 3 bytes before it.
 */
export function completeEnd(path: string, from: number, to: number): number {
  const start = Math.max(from, to - 4);
  const buf = readRangeSync(path, start, to);
  return start + completeLength(buf);
}

export interface OutputWatcherOptions {
  file: string;
  now: () => number;
  /** The file grew to `size` bytes (waiters wake here, unthrottled). */
  onGrowth: (size: number) => void;
  /** Throttled live text: the bytes since the previous call, at most `textMax` of them. */
  onText: (text: string, totalBytes: number) => void;
  emitEveryMs?: number;
  textMax?: number;
}

const WATCH_SETTLE_MS = 15; // coalesces a burst of notifications into one check

/**
 * Follows the growth of an output file without reading it whole. The owner
 * calls tick() on its poll timer; fs.watch is only a one-shot wake-up for
 * quiet files: the first notification disarms it and a tick that sees no
 * growth re-arms it, because a busy writer would otherwise flood the event
 * loop with one notification per write().
 */
export class OutputWatcher {
  size = 0;
  private emittedUpTo = 0;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private emitTimer: NodeJS.Timeout | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private watcher: fs.FSWatcher | undefined;
  private stopped = false;

  constructor(private readonly opts: OutputWatcherOptions) {}

  /** Stats the file; reports growth and schedules live text. True when it grew. */
  check(): boolean {
    const size = fileSize(this.opts.file);
    const grew = size > this.size;
    if (grew) {
      this.size = size;
      this.opts.onGrowth(size);
    }
    if (this.size > this.emittedUpTo && !this.emitTimer && !this.stopped) {
      const due = this.lastEmitAt + (this.opts.emitEveryMs ?? 100) - this.opts.now();
      if (due <= 0) this.emit(false);
      else this.emitTimer = setTimeout(() => {
        this.emitTimer = undefined;
        this.emit(false);
      }, due);
    }
    return grew;
  }

  tick(): void {
    if (!this.check()) this.arm();
  }

  /** Final check and flush of every unsent byte; no callbacks after this. */
  stop(): void {
    if (this.stopped) return;
    this.check();
    this.stopped = true;
    clearTimeout(this.emitTimer);
    clearTimeout(this.settleTimer);
    this.disarm();
    this.emit(true);
  }

  private emit(final: boolean): void {
    const file = this.opts.file;
    // A live writer may be mid-character: leave a split UTF-8 sequence for later.
    const to = final ? this.size : completeEnd(file, this.emittedUpTo, this.size);
    if (to <= this.emittedUpTo) return;
    const text = tailTextSync(file, this.emittedUpTo, to, this.opts.textMax ?? 4096);
    this.emittedUpTo = to;
    this.lastEmitAt = this.opts.now();
    this.opts.onText(text, to);
  }

  arm(): void {
    if (this.watcher || this.stopped) return;
    try {
      const watcher = fs.watch(this.opts.file, { persistent: false }, () => {
        this.disarm();
        this.settleTimer ??= setTimeout(() => {
          this.settleTimer = undefined;
          if (!this.stopped) this.check();
        }, WATCH_SETTLE_MS);
      });
      watcher.on("error", () => this.disarm());
      this.watcher = watcher;
    } catch {
      // The owner's poll still notices new output, only less promptly.
    }
  }

  private disarm(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
