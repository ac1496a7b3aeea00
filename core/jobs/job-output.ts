// One job's output on its way from the pipe to its log, and the reads of it:
// every chunk goes into the log (redacted, capped, its lines counted), the
// live view is told, and each read picks up where the same reader's previous
// read stopped. Each reading agent (the main agent, each worker) has its own
// place, so one agent's read never takes output from another.

import type { Readable } from "node:stream";
import { JobLog } from "./job-log.js";
import { completeEnd, LiveOutput, previewRange } from "./output-file.js";
import type { OutputRead } from "./types.js";

/**
 * How long the output pipe may stay open after the group is gone. Only a
 * process that left the group (setsid, a daemon) can still hold it; its later
 * writes are not waited for.
 */
const DRAIN_MS = 250;

export interface JobOutputOptions {
  maxBytes: number;
  secrets: readonly string[];
  now: () => number;
  /** Throttled live text for the view (job_output events). */
  onText: (text: string, totalBytes: number) => void;
}

/** Where one reader's next read starts. */
interface ReadPlace {
  cursor: number;
  /** Log size its last read saw; bytes it held back (a split character) are not "new" again. */
  seenUpTo: number;
  /** Newlines before `cursor`. */
  linesBefore: number;
}

export class JobOutput {
  readonly log: JobLog;
  private readonly live: LiveOutput;
  private stream: Readable | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  /** Each reader's place in the log, by reader name. */
  private readonly places = new Map<string, ReadPlace>();

  constructor(file: string, opts: JobOutputOptions) {
    this.log = new JobLog(file, { maxBytes: opts.maxBytes, secrets: opts.secrets });
    this.live = new LiveOutput({ log: this.log, now: opts.now, onText: opts.onText });
  }

  get size(): number {
    return this.log.size;
  }

  /** Output arrived since `reader`'s last read. */
  unreadBy(reader: string): boolean {
    const place = this.places.get(reader);
    return this.log.size > Math.max(place?.cursor ?? 0, place?.seenUpTo ?? 0);
  }

  append(chunk: Buffer): void {
    this.log.append(chunk);
    this.live.grew();
  }

  /** Reads `stream` into the log; `onData` after every chunk, `onClose` when it closes first. */
  follow(stream: Readable, onData: () => void, onClose: () => void): void {
    this.stream = stream;
    stream.on("data", (chunk: Buffer) => {
      this.append(chunk);
      onData();
    });
    stream.on("error", () => undefined); // a broken pipe ends like a closed one
    stream.once("close", () => {
      if (this.stream !== stream) return;
      this.stream = undefined;
      if (this.drainTimer) onClose();
    });
  }

  /**
   * The job's processes are gone: `finish` runs once the pipe is drained, at
   * once when it already is, or after DRAIN_MS when someone outside the
   * group still holds it. Returns true when it ran at once.
   */
  afterGroupGone(finish: () => void): boolean {
    if (!this.stream) return true;
    this.drainTimer ??= setTimeout(finish, DRAIN_MS);
    return false;
  }

  /** No more output: the pipe is let go, the log completed, the view flushed. */
  end(): void {
    clearTimeout(this.drainTimer);
    const stream = this.stream;
    this.stream = undefined;
    stream?.destroy();
    this.log.end();
    this.live.stop();
  }

  /** Output since `reader`'s previous read; a budget of 0 makes no preview. */
  readNew(running: boolean, budget: number, reader: string): Omit<OutputRead, "snapshot"> {
    const log = this.log;
    const place = this.places.get(reader) ?? { cursor: 0, seenUpTo: 0, linesBefore: 0 };
    this.places.set(reader, place);
    let to = log.size;
    place.seenUpTo = to;
    // A live writer may be mid-character: leave a split UTF-8 sequence for the next read.
    if (running) to = completeEnd(log, place.cursor, to);
    const from = Math.min(place.cursor, to);
    // Held-back bytes are part of a character, never a newline: the count is exact at `to`.
    const lines = log.newlines - place.linesBefore;
    place.cursor = to;
    place.linesBefore = log.newlines;
    const preview = budget > 0 ? previewRange(log, from, to, budget) : undefined;
    const kept = log.kept(from, to).reduce((n, r) => n + r.to - r.from, 0);
    return {
      text: preview?.text ?? "",
      newBytes: to - from,
      omittedBytes: preview?.omittedBytes ?? to - from,
      droppedBytes: to - from - kept,
      lines,
      from,
      to,
    };
  }
}
