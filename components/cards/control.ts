// The long-text control tools: done, complete and escalate carry a report
// that can run to pages. While its JSON still streams, parsing or rendering it
// would be wasted work on every delta, so the card says only how much has
// arrived ("N chars received"); once complete, the prose is the card body,
// rendered as Markdown, and complete adds its structured details.

import type { ToolCard } from "./fold.js";
import { parseArgs } from "./header.js";
import { plainLines, renderMarkdown } from "./markdown.js";
import { oneLine, screenText } from "../../core/text/safe.js";
import { wrapPrefixed } from "../../core/text/wrap.js";
import { palette, type Palette } from "./paint.js";

const CONTROL_TOOLS: ReadonlySet<string> = new Set(["done", "complete", "escalate"]);

export function isControlTool(name: string): boolean {
  return CONTROL_TOOLS.has(name);
}

/** Which field holds the prose, by tool, most specific first. */
const PROSE_KEYS: Record<string, readonly string[]> = {
  done: ["report", "message", "summary"],
  complete: ["summary", "report", "message", "result"],
  escalate: ["reason", "message", "report", "summary"],
};

/** complete's structured details, in the order they are shown. */
const DETAILS: readonly (readonly [string, string])[] = [
  ["files_changed", "Files changed"],
  ["remaining_limitations", "Remaining limitations"],
  ["known_risks", "Known risks"],
  ["follow_up_recommended", "Follow-up recommended"],
  ["artifacts", "Artifacts"],
  ["result_ref", "Result"],
];

export function receivedLine(chars: number): string {
  return `${chars.toLocaleString("en-US")} chars received`;
}

/** Body lines of a done / complete / escalate card. */
export function controlBody(card: ToolCard, width: number, color: boolean): string[] {
  const p = palette(color);
  if (card.status === "streaming") return [p.dim(receivedLine(card.argsText.length))];
  const args = parseArgs(card.argsText);
  const rows: string[] = [];
  if (!args) {
    // Not JSON after all: show what was sent rather than nothing.
    rows.push(...plainLines(card.argsText, width));
  } else {
    if (card.name === "escalate" && typeof args.kind === "string") {
      const kind = oneLine(args.kind);
      rows.push(`${p.dim("kind:")} ${kind === "blocked" ? p.red(kind) : p.yellow(kind)}`);
    }
    const key = (PROSE_KEYS[card.name] ?? PROSE_KEYS.done!).find((k) => typeof args[k] === "string");
    const prose = key === undefined ? "" : (args[key] as string);
    if (prose.trim() !== "") rows.push(...renderMarkdown(prose, width, color));
    else rows.push(p.dim("(no report)"));
    if (card.name === "complete") rows.push(...details(args, width, p));
  }
  if (card.status === "error" || card.status === "cancelled") {
    const result = (card.viewText ?? card.modelText ?? "").trim();
    if (result !== "") {
      rows.push("");
      for (const line of screenText(result).split("\n")) rows.push(...wrapPrefixed("", line, width, p.red));
    }
  }
  return rows;
}

function details(args: Record<string, unknown>, width: number, p: Palette): string[] {
  const rows: string[] = [];
  for (const [key, title] of DETAILS) {
    const items = itemsOf(args[key]);
    if (items.length === 0) continue;
    rows.push("", p.bold(title));
    for (const item of items) rows.push(...wrapPrefixed("• ", item, width));
  }
  return rows;
}

/** A detail value as one-line items: lists, strings, booleans, objects. */
function itemsOf(v: unknown): string[] {
  if (v === undefined || v === null || v === "") return [];
  if (Array.isArray(v)) return v.flatMap(itemsOf);
  if (typeof v === "boolean") return [v ? "yes" : "no"];
  if (typeof v === "object") return [objectItem(v as Record<string, unknown>)];
  return [oneLine(String(v))];
}

/** A file or artifact reference: its path or name, then what it says. */
function objectItem(o: Record<string, unknown>): string {
  const name = ["path", "rel_path", "file", "filename", "name", "id"].map((k) => o[k]).find((x) => typeof x === "string");
  const note = ["summary", "description", "change", "status", "result_type", "kind"]
    .map((k) => o[k])
    .find((x) => typeof x === "string");
  if (name === undefined) return oneLine(JSON.stringify(o));
  return oneLine(note === undefined ? String(name) : `${String(name)} — ${String(note)}`);
}
