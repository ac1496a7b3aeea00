// Appending whole lines to a log file (the conversation log, the trace) so
// that no failure can cost a later line:
//
//   - every byte is checked in: a short write (a full disk accepts part of a
//     buffer, then refuses the rest) is either completed or undone;
//   - a failed append is cut off again (the file is truncated back to the
//     length it had), so it leaves no partial line behind;
//   - a line a killed process left without its newline is never glued to
//     the next one: the first append after such a torn tail starts on a
//     fresh line, and readers skip the torn line alone.

import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";

const NEWLINE = 0x0a;

export interface AppendLog {
  /** Appends one line (`text` without its newline); throws with the system's reason when it cannot. */
  append(text: string, opts?: { sync?: boolean }): void;
  close(): void;
}

/** Opens `file` for appending (creating it, mode 0600); one writer at a time (the session lock sees to that). */
export function openAppendLog(file: string): AppendLog {
  // "a+": reading the last byte tells a torn tail; every write still appends.
  let fd: number | null = openSync(file, "a+", 0o600);
  let size = 0;
  let torn = false;
  // What the file ends with, read again whenever this process cannot know it.
  const measure = (handle: number) => {
    size = fstatSync(handle).size;
    torn = size > 0 && lastByte(handle, size) !== NEWLINE;
  };
  try {
    measure(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return {
    append(text, opts = {}) {
      if (fd === null) throw new Error(`${file} is closed`);
      const bytes = Buffer.from(`${torn ? "\n" : ""}${text}\n`);
      try {
        writeAll(fd, bytes);
        if (opts.sync) fsyncSync(fd);
      } catch (err) {
        undo(fd, size);
        try {
          measure(fd);
        } catch {
          torn = true; // unknown: the next append starts on a fresh line
        }
        throw err;
      }
      size += bytes.length;
      torn = false;
    },
    close() {
      if (fd === null) return;
      const closing = fd;
      fd = null;
      closeSync(closing);
    },
  };
}

/** Writes every byte or throws: a full disk may take part of a buffer, then refuse the rest. */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    const n = writeSync(fd, bytes, offset, bytes.length - offset);
    // A write that takes nothing and reports no error would loop for ever.
    if (n <= 0) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    offset += n;
  }
}

/** Cuts the file back to `size`: what a failed append wrote must not stay as a partial line. */
function undo(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // The next append starts on a fresh line instead, and readers skip the partial one.
  }
}

function lastByte(fd: number, size: number): number | undefined {
  const buf = Buffer.alloc(1);
  return readSync(fd, buf, 0, 1, size - 1) === 1 ? buf[0] : undefined;
}
