// Which cards fold, and how they start. Only tool calls whose output is a
// listing (read, grep, glob, shell, polling, generic and MCP tools) fold: their
// output can be long and is rarely worth reading in full. File changes,
// questions, delegation and the long-text control tools are the point of the
// card, so they are always expanded, their header is the tool name only and
// the fold keys leave them alone.
//
// Folding works on logical body lines (lines of the tool's output, before
// wrapping), so a card does not fold or unfold when the terminal is resized.
// Folded: header, the first FOLD_PREVIEW_LINES body lines, then
// "… N more lines (o to open)". Open: everything. A folded card whose body is
// no longer than the preview shows all of it (folding it changes nothing).
// defaultFolded is a pure function of the card: keep only the user's toggles
// and fall back to it, so a card that gains long output folds by itself.

import type { Card } from "../../core/reducer.js";
import { parseArgsJson } from "../../core/json-depth.js";
import { screenOutput, screenText } from "../../core/text/safe.js";

export type ToolCard = Extract<Card, { kind: "tool" }>;

export const FOLD_PREVIEW_LINES = 10;

export const ALWAYS_EXPANDED: ReadonlySet<string> = new Set([
  "edit",
  "write",
  "apply_patch",
  "udiff",
  "notebook_edit",
  "structural_edit",
  "delete",
  "todo_write",
  "write_todos",
  "question",
  "ask_user",
  "delegate",
  "notify",
  "handoff",
  "done",
  "complete",
  "escalate",
  "compact_context",
]);

/** Tools whose command is the key argument (and may span lines). */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["shell", "bash", "terminal_start", "exec_cell"]);

export function isFoldable(card: Card): boolean {
  return card.kind === "tool" && !ALWAYS_EXPANDED.has(card.name);
}

/** Whether a card starts folded: foldable and longer than the preview. */
export function defaultFolded(card: Card): boolean {
  if (card.kind !== "tool" || !isFoldable(card)) return false;
  return foldableBodyLines(card).length > FOLD_PREVIEW_LINES;
}

/** Whether the fold state matters for rendering this card (for cache keys). */
export function foldAffects(card: Card): boolean {
  return card.kind === "tool" && isFoldable(card) && foldableBodyLines(card).length > 0;
}

// The transcript asks defaultFolded for every visible card on every frame;
// splitting a 64 KiB output each time would be the slowest thing on screen.
const bodyMemo = new WeakMap<ToolCard, string[]>();

/**
 * The logical, terminal-safe, uncoloured body lines of a foldable tool card:
 * a multi-line command in full (the header has room for its first line only),
 * then the tool's output as the user should see it (viewText, else modelText).
 */
export function foldableBodyLines(card: ToolCard): string[] {
  const hit = bodyMemo.get(card);
  if (hit) return hit;
  const lines: string[] = [];
  if (COMMAND_TOOLS.has(card.name)) {
    const cmd = commandOf(card.argsText);
    const cmdLines = cmd === undefined ? [] : screenText(cmd).split("\n");
    if (cmdLines.length > 1) lines.push(...cmdLines.map((l, i) => (i === 0 ? `$ ${l}` : `  ${l}`)));
  }
  const output = card.viewText ?? card.modelText ?? "";
  // Command output keeps what a terminal would show of a line redrawn with \r.
  const trimmed = screenOutput(output).trimEnd();
  if (trimmed !== "") lines.push(...trimmed.split("\n"));
  bodyMemo.set(card, lines);
  return lines;
}

function commandOf(argsText: string): string | undefined {
  const a = parseArgsJson(argsText)?.value as Record<string, unknown> | null | undefined;
  const v = a?.cmd ?? a?.command ?? a?.source;
  return typeof v === "string" ? v : undefined;
}
