// The first line of every card: a numbered badge by kind (USER #12,
// ASSISTANT #13, TOOL CALL #14, NOTICE, AGENT COMPLETE / AGENT BLOCKED), and
// for tool calls the name, the key argument (foldable cards), the status and
// the duration:
//
//   TOOL CALL #14 ▾ read src/a.ts:1-40 ✓ 12ms     (foldable: ▸ folded, ▾ open)
//   TOOL CALL #15 edit ⠋                          (always expanded: name only)
//
// Args are untrusted model output: every piece goes through oneLine().

import { isAbsolute, relative } from "node:path";
import type { Card, ToolCardStatus } from "../../core/reducer.js";
import { foldAffects, isFoldable, type ToolCard } from "./fold.js";
import { oneLine } from "../../core/text/safe.js";
import { truncate, widthOf } from "../../core/text/width.js";
import { palette, type Paint, type Palette } from "./paint.js";
import { formatDuration } from "../../core/format.js";
import { parseArgsJson } from "../../core/json-depth.js";

export interface HeaderOpts {
  width: number;
  folded: boolean;
  cwd: string;
  color: boolean;
}

/** The args object of a call, or undefined while it streams or if invalid. */
export function parseArgs(argsText: string): Record<string, unknown> | undefined {
  const v = parseArgsJson(argsText || "{}")?.value;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * A string argument by the first of `keys` present: from the parsed args, or
 * while the JSON is still streaming, from a value whose closing quote has
 * arrived, so a read card names its file before the call is complete.
 */
function argString(argsText: string, keys: readonly string[]): string | undefined {
  const args = parseArgs(argsText);
  for (const k of keys) {
    if (args) {
      if (typeof args[k] === "string") return args[k] as string;
      continue;
    }
    const m = new RegExp(`"${k}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(argsText);
    if (m) {
      try {
        return JSON.parse(`"${m[1]}"`) as string;
      } catch {
        return m[1];
      }
    }
  }
  return undefined;
}

/** A path as the user thinks of it: relative when it lies inside cwd. */
export function displayPath(p: string, cwd: string): string {
  if (!cwd || !isAbsolute(p)) return p;
  const rel = relative(cwd, p);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? p : rel;
}

const PATH_KEYS = ["path", "file_path", "filePath", "filename"];

/**
 * The one argument that says what a call is about, for the header: as the
 * tool words it once the arguments are complete; until then (and for an
 * earlier version's trace) a path, else a key value, else `k=v` pairs.
 */
export function keyArgument(card: ToolCard, cwd: string): string {
  if (card.summary !== undefined) return card.summary;
  const p = argString(card.argsText, PATH_KEYS);
  return p === undefined ? genericSummary(card.argsText) : displayPath(p, cwd);
}

const GENERIC_KEYS = ["cmd", "command", "pattern", "query", "url", "name", "id", "task_id", "job_id", "message"];

/** A key value if there is one, else `k=v` pairs. */
function genericSummary(argsText: string): string {
  const key = argString(argsText, GENERIC_KEYS);
  if (key !== undefined) return key;
  const args = parseArgs(argsText);
  if (!args) return "";
  return Object.entries(args)
    .map(([k, v]) => `${k}=${valueSummary(v)}`)
    .join(", ");
}

function valueSummary(v: unknown): string {
  if (Array.isArray(v)) return `[${v.length} items]`;
  if (v && typeof v === "object") return `{${Object.keys(v).length} fields}`;
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v);
  return String(v);
}

/** A static mark per status: the header must not change while nothing does. */
function statusMark(status: ToolCardStatus, p: Palette): { mark: string; paint: Paint } {
  switch (status) {
    case "streaming":
      return { mark: "⋯", paint: p.dim };
    case "running":
      return { mark: "⠿", paint: p.yellow };
    case "ok":
      return { mark: "✓", paint: p.green };
    case "error":
      return { mark: "✗", paint: p.red };
    case "cancelled":
      return { mark: "⊘", paint: p.gray };
  }
}

interface Piece {
  text: string;
  paint: Paint;
  /** The one piece that gives up width when the line is too long. */
  elastic?: boolean;
}

/** The header line, at most opts.width columns wide. */
export function cardHeader(card: Card, opts: HeaderOpts): string {
  const p = palette(opts.color);
  const pieces: Piece[] = [];
  const badge = (label: string, paint: Paint) =>
    pieces.push({ text: opts.color ? ` ${label} ` : label, paint });
  switch (card.kind) {
    case "user":
      badge(`USER #${card.num}`, p.badgeBlue);
      break;
    case "assistant":
      badge(`ASSISTANT #${card.num}`, p.badgeMagenta);
      if (card.streaming) pieces.push({ text: "⋯", paint: p.dim });
      break;
    case "notice": {
      // A worker's completion or terminal failure is a card of its own kind.
      if (card.agent) {
        badge(`AGENT ${card.agent === "completed" ? "COMPLETE" : "BLOCKED"} #${card.num}`, card.agent === "completed" ? p.badgeGreen : p.badgeRed);
        break;
      }
      const paint = card.level === "error" ? p.badgeRed : card.level === "warning" ? p.badgeYellow : p.badgeGray;
      badge(`NOTICE #${card.num}`, paint);
      if (card.level !== "info") pieces.push({ text: card.level, paint: card.level === "error" ? p.red : p.yellow });
      break;
    }
    case "job":
      badge(`JOB RESULT #${card.num}`, card.failed ? p.badgeRed : p.badgeGray);
      pieces.push({ text: oneLine(card.jobId), paint: p.bold });
      pieces.push({ text: card.how, paint: card.failed ? p.red : p.green });
      if (card.durationMs !== undefined) pieces.push({ text: formatDuration(card.durationMs), paint: p.dim });
      break;
    case "tool": {
      badge(`TOOL CALL #${card.num}`, p.badgeCyan);
      const foldable = isFoldable(card);
      if (foldable) pieces.push({ text: opts.folded && foldAffects(card) ? "▸" : "▾", paint: p.cyan });
      pieces.push({ text: oneLine(card.name), paint: p.bold });
      if (foldable) {
        const arg = oneLine(keyArgument(card, opts.cwd));
        if (arg) pieces.push({ text: arg, paint: (s) => s, elastic: true });
      }
      const st = statusMark(card.status, p);
      pieces.push({ text: st.mark, paint: st.paint });
      const finished = card.status === "ok" || card.status === "error" || card.status === "cancelled";
      if (finished && card.durationMs !== undefined) pieces.push({ text: formatDuration(card.durationMs), paint: p.dim });
      break;
    }
  }
  return layout(pieces, Math.max(1, opts.width));
}

/** Joins pieces with spaces, shrinking the elastic one first, then cutting. */
function layout(pieces: Piece[], width: number): string {
  const total = pieces.reduce((n, x) => n + widthOf(x.text), 0) + pieces.length - 1;
  let over = total - width;
  if (over > 0) {
    const el = pieces.find((x) => x.elastic);
    if (el) {
      const w = widthOf(el.text);
      const keep = w - over;
      if (keep >= 2) {
        el.text = truncate(el.text, keep);
        over = 0;
      } else {
        pieces.splice(pieces.indexOf(el), 1);
        over -= w + 1;
      }
    }
  }
  if (over > 0) {
    // Still too wide (a very narrow pane): plain text, cut at the edge.
    return truncate(pieces.map((x) => x.text).join(" "), width);
  }
  return pieces.map((x) => x.paint(x.text)).join(" ");
}
