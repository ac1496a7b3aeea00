// The TUI's own screen writer. Ink lays out and paints each frame as text;
// this module puts it on the terminal. Ink's own writer, given a frame as tall
// as the terminal, clears the screen *and the scrollback* (ESC[2J ESC[3J)
// before every frame, which erases the user's terminal history and costs a
// whole screen per keystroke. Here each frame is compared with the last one,
// row by row, and only the rows that changed are rewritten in place, inside
// one synchronized update so the terminal never shows half a frame.

import { EventEmitter } from "node:events";
import type { RowEcho } from "../../components/composer-echo.js";

/** Begin / end synchronized update: the terminal shows the frame at once. */
const SYNC_ON = "\x1b[?2026h";
const SYNC_OFF = "\x1b[?2026l";
// The row is erased before it is written, not after: a row as wide as the
// terminal leaves the cursor on its last column, where an erase to the end
// of the line would take that last character with it.
const ERASE_LINE = "\x1b[2K";
/** Erases the visible screen only: the scrollback is left alone. */
const ERASE_SCREEN = "\x1b[2J";
/** Erases from the cursor to the end of its row. */
const ERASE_TO_END = "\x1b[K";

export interface FrameTarget {
  write(data: string): unknown;
  columns?: number;
  rows?: number;
  on(event: "resize", listener: () => void): unknown;
  off(event: "resize", listener: () => void): unknown;
}

/** What Ink is given as its stdout: it takes whole frames and passes on only their changes. */
export interface FrameStdout extends EventEmitter {
  readonly columns: number;
  readonly rows: number;
  readonly isTTY: true;
  write(frame: string): boolean;
  /** Stops writing (after the UI is unmounted) and detaches from the terminal. */
  close(): void;
  /** Draws nothing until resumed (another program has the terminal); frames painted meanwhile are kept. */
  suspend(): void;
  /** Clears the visible screen and draws the latest frame whole. */
  resume(): void;
  /**
   * Paints one row's edit ahead of the next frame (a keystroke's echo) and
   * records it as shown, so the frame that follows writes nothing for it.
   * Only when the screen shows `before` on a row, the lowest such row; false
   * (nothing written) otherwise.
   */
  paintRow(echo: RowEcho): boolean;
}

const moveTo = (row: number, column = 0) => `\x1b[${row + 1};${column + 1}H`;

/**
 * The rows to rewrite to turn `before` into `after`: each changed row is
 * moved to, erased and written; rows the new frame no longer has are erased.
 */
export function frameDiff(before: readonly string[], after: readonly string[]): string {
  let out = "";
  const rows = Math.max(before.length, after.length);
  for (let row = 0; row < rows; row++) {
    const next = after[row];
    if (next === before[row]) continue;
    out += moveTo(row) + ERASE_LINE + (next ?? "");
  }
  return out;
}

export function createFrameStdout(target: FrameTarget): FrameStdout {
  let shown: string[] = [];
  let closed = false;
  let suspended = false;
  /** The newest frame painted while suspended, drawn on resume. */
  let latest: string[] = [];
  const emitter = new EventEmitter();
  const onResize = () => {
    // After a resize the terminal has rewrapped what it shows: start over on
    // a blank screen (the visible screen only) and draw the next frame whole.
    shown = [];
    if (!suspended) target.write(ERASE_SCREEN);
    emitter.emit("resize");
  };
  target.on("resize", onResize);
  // Defined as getters (not copied values): Ink and the view read the size after each resize.
  Object.defineProperties(emitter, {
    columns: { get: () => target.columns || 100 },
    rows: { get: () => target.rows || 30 },
    isTTY: { value: true },
  });
  return Object.assign(emitter as FrameStdout, {
    write(frame: string): boolean {
      if (closed) return true;
      // A frame taller than the screen would scroll it: rows past the last are not drawn.
      const lines = frame.replace(/\n$/, "").split("\n").slice(0, target.rows || undefined);
      latest = lines;
      if (suspended) return true;
      const changes = frameDiff(shown, lines);
      shown = lines;
      if (changes) target.write(SYNC_ON + changes + SYNC_OFF);
      return true;
    },
    suspend() {
      suspended = true;
    },
    resume() {
      suspended = false;
      shown = latest;
      if (!closed) target.write(SYNC_ON + ERASE_SCREEN + frameDiff([], latest) + SYNC_OFF);
    },
    paintRow(echo: RowEcho): boolean {
      if (closed || suspended) return false;
      const row = shown.lastIndexOf(echo.before);
      if (row < 0) return false;
      // The row only grew or changed in place unless it shrank: then its old end is erased.
      // It is one short write, seen whole without a synchronized update.
      target.write(moveTo(row, echo.column) + echo.tail + (echo.shrinks ? ERASE_TO_END : ""));
      shown = [...shown];
      shown[row] = echo.after;
      return true;
    },
    close() {
      closed = true;
      target.off("resize", onResize);
    },
  });
}
