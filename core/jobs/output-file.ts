// Turning a job's output log into text fit for a model: escapes and control
// characters stripped, a bounded head + tail preview with an exact count of
// what was left out (and of what the log no longer holds), read by byte
// ranges so a log of any size costs only the bytes shown.

import { modelText } from "../text/escapes.js";
import { collapseSimilarLines } from "../text/output-lines.js";

/** Output up to this size is cleaned whole before it is bounded; a larger log is read only at its head and tail. */
export const COLLAPSE_READ_LIMIT_BYTES = 1024 * 1024;
import type { LogRange, LogReader } from "./job-log.js";

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

/** Bytes to text; invalid UTF-8 becomes U+FFFD. */
function decode(buf: Uint8Array): string {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("utf8");
}

export interface Preview {
  text: string;
  /** Raw bytes of the range shown at the start and at the end. */
  headBytes: number;
  tailBytes: number;
  /** Raw bytes left out between them: headBytes + omittedBytes + tailBytes = to - from. */
  omittedBytes: number;
  /** Of the omitted bytes, those the log no longer holds (past [output].max_job_log_bytes). */
  droppedBytes: number;
}

/** The line that stands in for the bytes left out of a preview. */
function omissionLine(omitted: number, path: string, dropped = 0): string {
  if (dropped === 0) return `[... ${omitted} bytes omitted; full output: ${path} ...]`;
  return (
    `[... ${omitted} bytes omitted, ${dropped} of them dropped from the log ` +
    `(it keeps the first and the last part: [output].max_job_log_bytes); kept output: ${path} ...]`
  );
}

/** The line after output over the budget that fit once similar lines were collapsed. */
function collapsedLine(total: number, path: string): string {
  return `[... ${total} bytes shown with similar lines collapsed; full output: ${path} ...]`;
}

const span = (r: LogRange) => r.to - r.from;

/** Where a head and a tail of about `half` bytes each come from, within the kept parts. */
export function headAndTail(parts: readonly LogRange[], half: number): { head: LogRange; tail: LogRange } {
  const first = parts[0] ?? { from: 0, to: 0 };
  const last = parts.at(-1) ?? first;
  const head = { from: first.from, to: Math.min(first.to, first.from + half) };
  const tailFrom = Math.max(last.from, last.to - half, parts.length === 1 ? head.to : last.from);
  return { head, tail: { from: tailFrom, to: last.to } };
}

/**
 * Text of bytes [from, to) of the log, at most about `budget` bytes of it:
 * all of it when it fits and is kept, else a head and a tail of about half
 * the budget each, cut at line boundaries where one is near, around a line
 * that says exactly how many bytes were left out and where the output is.
 */
export function previewRange(log: LogReader, from: number, to: number, budget: number): Preview {
  const total = Math.max(0, to - from);
  const parts = log.kept(from, to);
  const keptBytes = parts.reduce((n, p) => n + span(p), 0);
  if (total <= budget && keptBytes === total) {
    const buf = log.read(from, to);
    const text = modelText(decode(buf));
    return { text: Buffer.byteLength(text) > budget / 2 ? collapseSimilarLines(text) : text, headBytes: buf.length, tailBytes: 0, omittedBytes: total - buf.length, droppedBytes: 0 };
  }
  // Cleaned before it is bounded: output that collapses (a progress log, a
  // thousand similar download lines) into the budget is shown whole.
  if (keptBytes === total && total <= COLLAPSE_READ_LIMIT_BYTES) {
    const buf = log.read(from, to);
    const text = collapseSimilarLines(modelText(decode(buf)));
    // Past the budget the collapsed lines were not all alike (numbers, hashes): say where they all are.
    if (Buffer.byteLength(text) <= budget) return { text: `${text}${text.endsWith("\n") ? "" : "\n"}${collapsedLine(total, log.path)}`, headBytes: buf.length, tailBytes: 0, omittedBytes: 0, droppedBytes: 0 };
  }
  const half = Math.max(1, Math.floor(budget / 2));
  const { head: headRange, tail: tailRange } = headAndTail(parts, half);
  const head = log.read(headRange.from, headRange.to);
  const tail = log.read(tailRange.from, tailRange.to);

  // Prefer ending the head after a newline, if that keeps at least half of it.
  const nl = head.lastIndexOf(0x0a);
  const headBytes = nl >= half / 2 ? nl + 1 : completeLength(head);
  // Prefer starting the tail at a line start, under the same condition.
  const firstNl = tail.indexOf(0x0a);
  const tailStart = firstNl >= 0 && firstNl < half / 2 ? firstNl + 1 : charStartForward(tail, 0);
  const tailBytes = tail.length - tailStart;
  const omittedBytes = total - headBytes - tailBytes;
  const droppedBytes = total - keptBytes;

  const shownHead = modelText(decode(head.subarray(0, headBytes)));
  const shownTail = modelText(decode(tail.subarray(tailStart)));
  const sep = shownHead === "" || shownHead.endsWith("\n") ? "" : "\n";
  const text = `${shownHead}${sep}${omissionLine(omittedBytes, log.path, droppedBytes)}\n${shownTail}`;
  return { text, headBytes, tailBytes, omittedBytes, droppedBytes };
}

/**
 * Text for a live output event: the bytes [from, to), or only their last
 * `max` bytes when more arrived (the view shows the newest lines).
 */
function tailText(log: LogReader, from: number, to: number, max: number): string {
  const start = Math.max(from, to - max);
  const buf = log.read(start, to);
  const skip = start > from ? charStartForward(buf, 0) : 0;
  return modelText(decode(buf.subarray(skip)));
}

/**
 * The log's last `max` bytes as text, from a character start: `cut` when
 * earlier output was left out, `dropped` the bytes of the stream the log no
 * longer holds (past [output].max_job_log_bytes).
 */
export function outputTail(log: LogReader, max: number): { text: string; cut: boolean; dropped: number } {
  const kept = log.kept(0, log.size).reduce((n, r) => n + span(r), 0);
  return { text: tailText(log, 0, log.size, max), cut: log.size > max, dropped: log.size - kept };
}

/**
 * Where a read of [from, to) should stop so it does not split a UTF-8
 * character still being written: `to`, or up to 3 bytes before it.
 */
export function completeEnd(log: LogReader, from: number, to: number): number {
  const start = Math.max(from, to - 4);
  const buf = log.read(start, to);
  if (buf.length < to - start) return to; // not kept: nothing to hold back
  return start + completeLength(buf);
}

export interface LiveOutputOptions {
  log: LogReader;
  now: () => number;
  /** Throttled live text: the bytes since the previous call, at most `textMax` of them. */
  onText: (text: string, totalBytes: number) => void;
  emitEveryMs?: number;
  textMax?: number;
}

/**
 * Live text of a growing log, throttled: the owner calls grew() whenever the
 * log grew, and at most one onText per emitEveryMs follows, holding the
 * newest bytes since the previous one.
 */
export class LiveOutput {
  private emittedUpTo = 0;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: LiveOutputOptions) {}

  grew(): void {
    if (this.stopped || this.timer || this.opts.log.size <= this.emittedUpTo) return;
    const due = this.lastEmitAt + (this.opts.emitEveryMs ?? 100) - this.opts.now();
    if (due <= 0) this.emit(false);
    else {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.emit(false);
      }, due);
    }
  }

  /** Flushes every unsent byte; no callbacks after this. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.emit(true);
  }

  private emit(final: boolean): void {
    const { log } = this.opts;
    // A live writer may be mid-character: leave a split UTF-8 sequence for later.
    const to = final ? log.size : completeEnd(log, this.emittedUpTo, log.size);
    if (to <= this.emittedUpTo) return;
    const text = tailText(log, this.emittedUpTo, to, this.opts.textMax ?? 4096);
    this.emittedUpTo = to;
    this.lastEmitAt = this.opts.now();
    this.opts.onText(text, to);
  }
}
