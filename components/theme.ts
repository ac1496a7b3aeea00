// The few colours and formatting helpers the TUI components share. Text is
// made safe, measured and cut by core/text, the same for every renderer.

import { homedir } from "node:os";
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

/** `/home/me/src/x` → `~/src/x`. */
export function short(path: string, home: string = homedir()): string {
  if (!home || home === "/") return path;
  if (path === home) return "~";
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
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
