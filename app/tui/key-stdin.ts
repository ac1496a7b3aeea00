// The terminal's input as the view reads it: one key per read. A terminal
// read can carry several keys (three Backspaces, `i` and the text after it,
// a burst typed while a frame was being drawn); Ink hands a run of plain
// bytes to its handlers as one "key", so a handler that expects one key sees
// "\x7f\x7f\x7f" or "ihello" and drops it. Here each read is cut into keys
// before Ink sees it, in order:
//   - escape sequences stay whole (arrows, function keys, Alt+key);
//   - a bracketed paste (ESC[200~ … ESC[201~) is one piece, however many
//     reads it spans, between its two markers;
//   - any other text is one key per code point, Enter included: a burst
//     ("clean", Enter, "h" in one read) is typing, and the view turns on
//     bracketed paste, so a paste is never mistaken for it.

import { EventEmitter } from "node:events";

const ESC = "\x1b";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

interface KeySplitter {
  /** The keys in one read, in order. */
  push(chunk: string): string[];
}

export function createKeySplitter(): KeySplitter {
  let inPaste = false;
  return {
    push(chunk) {
      const keys: string[] = [];
      let rest = chunk;
      while (rest) {
        if (inPaste) {
          const end = rest.indexOf(PASTE_END);
          if (end < 0) {
            keys.push(rest);
            break;
          }
          if (end > 0) keys.push(rest.slice(0, end));
          keys.push(PASTE_END);
          inPaste = false;
          rest = rest.slice(end + PASTE_END.length);
          continue;
        }
        if (rest.startsWith(PASTE_START)) {
          keys.push(PASTE_START);
          inPaste = true;
          rest = rest.slice(PASTE_START.length);
          continue;
        }
        if (rest.startsWith(ESC)) {
          const n = escapeLength(rest);
          keys.push(rest.slice(0, n));
          rest = rest.slice(n);
          continue;
        }
        const next = rest.indexOf(ESC);
        const run = next < 0 ? rest : rest.slice(0, next);
        rest = next < 0 ? "" : rest.slice(next);
        keys.push(...Array.from(run));
      }
      return keys;
    },
  };
}

/**
 * The length of the escape sequence `s` starts with: CSI (ESC [ … final),
 * SS3 (ESC O x), Alt+key (ESC x, or ESC ESC [ … for Alt+arrow). An
 * incomplete one is the rest of the read: Ink keeps it until the next.
 */
function escapeLength(s: string): number {
  if (s.length === 1) return 1;
  const start = s[1] === ESC ? 2 : 1;
  const kind = s[start];
  if (kind === "[") {
    for (let i = start + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      // Legacy function keys (ESC [ [ A) carry a second bracket first.
      if (c === 0x5b && i === start + 1) continue;
      if (c >= 0x40 && c <= 0x7e) return i + 1;
      if (c < 0x20 || c > 0x3f) return i;
    }
    return s.length;
  }
  if (kind === "O") return Math.min(s.length, start + 2);
  if (start === 2) return 2;
  // Alt+key: ESC and one code point.
  const cp = s.codePointAt(1)!;
  return 1 + (cp > 0xffff ? 2 : 1);
}

/** The key stdin, and a way to stop reading the terminal while another program has it (an editor). */
export interface KeyInput {
  stdin: NodeJS.ReadStream;
  /** Stops reading and leaves raw mode, whatever Ink asked for. */
  hold(): void;
  /** Reads again, in raw mode, if Ink wants input. */
  release(): void;
}

/**
 * A stdin for Ink that delivers one key per read (see above). It forwards
 * raw mode to the real terminal and reads it only while Ink wants input.
 * It is not a stream: a stream tells its reader of new data on the next
 * tick, and each key waited for that before its echo. Here Ink's reader is
 * told at once, in the terminal read's own callback; Ink uses only `read()`
 * and the `readable` event.
 */
export function createKeyInput(input: NodeJS.ReadStream): KeyInput {
  const splitter = createKeySplitter();
  const queue: string[] = [];
  const stream = new EventEmitter();
  const onData = (chunk: string | Buffer) => {
    queue.push(...splitter.push(typeof chunk === "string" ? chunk : chunk.toString("utf8")));
    if (queue.length) stream.emit("readable");
  };
  let reading = false;
  let held = false;
  const listen = (on: boolean) => {
    if (on) {
      input.setEncoding("utf8");
      input.on("data", onData);
      input.resume();
    } else {
      input.off("data", onData);
      input.pause();
    }
  };
  // A reader that starts listening while keys wait is told of them, as a stream would.
  stream.on("newListener", (event: string) => {
    if (event === "readable") process.nextTick(() => queue.length && stream.emit("readable"));
  });
  Object.assign(stream, {
    isTTY: input.isTTY,
    read: () => queue.shift() ?? null,
    // Keys are already strings; a decoder on top would treat them as bytes.
    setEncoding: () => stream,
    setRawMode(on: boolean) {
      if (!held) input.setRawMode?.(on);
      if (on !== reading && !held) listen(on);
      reading = on;
      return stream;
    },
    ref: () => (input.ref(), stream),
    unref: () => (input.unref(), stream),
  });
  // Raw from the start: keys typed before the first frame is drawn would
  // otherwise wait in the terminal's line buffer, with Enter turned into a
  // line feed (a new line in the composer instead of a send).
  if (input.isTTY) input.setRawMode(true);
  return {
    stdin: stream as unknown as NodeJS.ReadStream,
    hold() {
      if (held) return;
      held = true;
      if (reading) listen(false);
      input.setRawMode?.(false);
    },
    release() {
      if (!held) return;
      held = false;
      input.setRawMode?.(true);
      if (reading) listen(true);
    },
  };
}
