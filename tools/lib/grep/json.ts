// Chord grep's output format: rg's `--json` events, which carry context
// lines and exact paths. rg prints each file's events together (begin,
// matches and context, end) but files in any order; they are gathered file by
// file (collect.ts) in the order `rg --sort path` would walk, without asking
// rg to sort (which makes it search on one thread).

import { FileCollector, type CollectOptions } from "./collect.js";
import type { FileMatches } from "./first-in-order.js";

/** rg's flags for this format. */
export const JSON_FLAGS: readonly string[] = ["--json"];

/** One `match` or `context` event line, unparsed until it is shown. */
export interface RgEvent {
  json: Buffer;
  match: boolean;
}

export interface GrepLine {
  /** The path as rg printed it (relative to the directory it ran in). */
  file: string;
  n: number;
  text: string;
  match: boolean;
}

type RgField = { text?: string; bytes?: string } | undefined;

function rgText(field: RgField): string {
  if (!field) return "";
  if (field.text !== undefined) return field.text;
  return new TextDecoder("utf-8").decode(Buffer.from(field.bytes ?? "", "base64"));
}

const pathBytes = (p: RgField): Buffer =>
  p?.text !== undefined ? Buffer.from(p.text, "utf8") : Buffer.from(p?.bytes ?? "", "base64");

/** Control characters other than tab are dropped; invalid UTF-8 is already U+FFFD. */
const clean = (s: string): string => s.replace(/\r?\n$/, "").replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "");

/**
 * The order `rg --sort path` walks in: each directory's entries by name,
 * bytewise, depth first — the same as comparing byte by byte with `/` below
 * every other byte (a name that ends first sorts first).
 */
function comparePaths(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x === 0x2f) return -1;
    if (y === 0x2f) return 1;
    return x - y;
  }
  return a.length - b.length;
}

// rg writes `"type"` first; reading it off the bytes spares decoding and
// parsing every event (tens of thousands, megabytes, on a large tree) only to
// skip most of them. rg's JSON is UTF-8 throughout and a newline byte only
// ever ends a line, so a line is the bytes between newlines.
const TYPE_PREFIXES = ["match", "context", "begin", "end"].map((t) => ({ t, bytes: Buffer.from(`{"type":"${t}"`) }));

function hasPrefix(data: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[start + i] !== prefix[i]) return false;
  return true;
}

function eventType(data: Buffer, start: number, end: number): string | undefined {
  for (const { t, bytes } of TYPE_PREFIXES) if (hasPrefix(data, start, end, bytes)) return t;
  try {
    return (JSON.parse(data.toString("utf8", start, end)) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

/** The path of a begin (or any) event line. */
function eventPath(data: Buffer, start: number, end: number): Buffer | undefined {
  try {
    return pathBytes((JSON.parse(data.toString("utf8", start, end)) as { data?: { path?: RgField } }).data?.path);
  } catch {
    return undefined;
  }
}

export type EventCollector = FileCollector<Buffer, RgEvent>;

/** A collector of events in rg's path order; only matches count. */
export function eventCollector(opts: Pick<CollectOptions<Buffer, RgEvent>, "wanted" | "hidden">): EventCollector {
  return new FileCollector<Buffer, RgEvent>({ ...opts, compareKeys: comparePaths, counts: (e) => e.match });
}

/** Feeds batches of rg's JSON lines into the collector. */
export function eventDecoder(into: EventCollector): (batch: Buffer) => void {
  return (data) => {
    for (let start = 0; start < data.length; ) {
      let end = data.indexOf(0x0a, start);
      if (end < 0) end = data.length;
      const lineStart = start;
      start = end + 1;
      if (end > lineStart) decodeLine(into, data, lineStart, end);
    }
  };
}

function decodeLine(into: EventCollector, data: Buffer, start: number, end: number): void {
  const type = eventType(data, start, end);
  if (type === "begin" || type === "end") {
    into.end();
    const key = type === "begin" ? eventPath(data, start, end) : undefined;
    if (key) into.open(key);
    return;
  }
  if (type !== "match" && type !== "context") return;
  if (into.currentKey === undefined) {
    // Not expected from rg: an event outside begin/end gets a file of its own.
    const key = eventPath(data, start, end);
    if (!key) return;
    into.open(key);
  }
  into.add({ json: Buffer.from(data.subarray(start, end)), match: type === "match" });
}

/** The lines of one file's events. */
export function eventLines(file: FileMatches<Buffer, RgEvent>): GrepLine[] {
  const lines: GrepLine[] = [];
  for (const event of file.entries) {
    let ev: { type: string; data: Record<string, unknown> };
    try {
      ev = JSON.parse(event.json.toString("utf8")) as typeof ev;
    } catch {
      continue;
    }
    if (ev.type !== "match" && ev.type !== "context") continue;
    const d = ev.data as { path?: RgField; lines?: RgField; line_number?: number };
    lines.push({ file: rgText(d.path), n: d.line_number ?? 0, text: clean(rgText(d.lines)), match: ev.type === "match" });
  }
  return lines;
}
