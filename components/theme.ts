// The few colours and text helpers the TUI components share, so every panel
// measures, cuts and colours text the same way.

import { homedir } from "node:os";
import stripAnsi from "strip-ansi";
import { formatDuration } from "../core/format.js";

export const theme = {
  accent: "cyan",
  muted: "gray",
  ok: "green",
  warn: "yellow",
  error: "red",
  added: "green",
  removed: "red",
  chip: "magenta",
  insert: "green",
  normal: "blue",
  yolo: "red",
} as const;

// East Asian wide and emoji ranges occupy two columns; everything else one.
// A rough table is enough for cutting lines: Ink measures again when it lays out.
const WIDE: Array<[number, number]> = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xa000, 0xa4cf], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60],
  [0xffe0, 0xffe6], [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x300 && cp <= 0x36f) || cp === 0x200d) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** Cuts `text` to at most `width` columns, marking the cut with `…`. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Cuts from the left, keeping the end (paths, where the file name matters). */
export function truncateStart(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  const chars = Array.from(text);
  let out = "";
  let w = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const cw = charWidth(chars[i]!);
    if (w + cw > width - 1) break;
    out = chars[i]! + out;
    w += cw;
  }
  return `…${out}`;
}

/** `/home/me/src/x` → `~/src/x`. */
export function short(path: string, home: string = homedir()): string {
  if (!home || home === "/") return path;
  if (path === home) return "~";
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/**
 * Text from tools and jobs made safe to print inside the layout: colour and
 * cursor sequences removed (they would move Ink's cursor), a carriage return
 * keeps what a terminal would show (the text after it), tabs become spaces,
 * and any other control character is shown escaped instead of acted on.
 */
export function safeText(text: string): string {
  const lines = stripAnsi(text).replace(/\r\n/g, "\n").split("\n");
  return lines
    .map((line) => {
      const parts = line.split("\r").filter((p) => p !== "");
      return expandTabs(parts[parts.length - 1] ?? "");
    })
    .join("\n")
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const ch of line) out += ch === "\t" ? " ".repeat(4 - (textWidth(out) % 4)) : ch;
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Seconds with one decimal below a minute, then `2m05s`, then `1h02m`. */
export function formatElapsed(ms: number): string {
  // A ticking clock reads better as 0.4s than as 400ms; past a second it is the common format.
  return ms < 1000 ? `${(Math.max(0, ms) / 1000).toFixed(1)}s` : formatDuration(ms);
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Milliseconds since an ISO time; 0 when the time is missing or unreadable. */
export function since(iso: string | undefined, now: number): number {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? 0 : Math.max(0, now - t);
}
