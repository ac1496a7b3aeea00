// Which cards fold, and how they start. A tool says how its card is laid out
// (the tool_call_started event carries it): a listing (reads, searches,
// commands, polling) folds, as its output can be long and is rarely worth
// reading in full; changes, questions and todos are the point of the card,
// so they are always expanded; a control card (a finish report) streams long
// prose. A card from a trace of an earlier version, which carries no layout,
// folds.
//
// Folding works on logical body lines (lines of the tool's output, before
// wrapping), so a card does not fold or unfold when the terminal is resized.
// Folded: header, the first FOLD_PREVIEW_LINES body lines, then
// "… N more lines (o to open)". Open: everything. A folded card whose body is
// no longer than the preview shows all of it (folding it changes nothing).
// defaultFolded is a pure function of the card: keep only the user's toggles
// and fall back to it, so a card that gains long output folds by itself.

import type { Card } from "../../core/reducer.js";
import type { ToolDisplay } from "../../core/display-schema.js";
import { displayText } from "../../core/display-text.js";
import { screenOutput, screenText } from "../../core/text/safe.js";

export type ToolCard = Extract<Card, { kind: "tool" }>;

export const FOLD_PREVIEW_LINES = 10;

/** How the card is laid out: as its tool says, else (an earlier version's trace) foldable. */
export function cardLayout(card: ToolCard): "foldable" | "expanded" | "control" {
  return card.view?.card ?? "foldable";
}

export function isFoldable(card: Card): boolean {
  return card.kind === "tool" && cardLayout(card) === "foldable";
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

/** What the result shows: its display; an earlier version's view text; else the model's text. */
export function resultDisplay(card: ToolCard): ToolDisplay | undefined {
  if (card.display) return card.display;
  const text = card.viewText ?? card.modelText;
  return text === undefined ? undefined : { kind: "text", text };
}

/** The command a card runs, from its result or, until then, its preview. */
function commandOf(card: ToolCard): string | undefined {
  const d = card.display?.kind === "command" ? card.display : card.preview?.kind === "command" ? card.preview : undefined;
  return d?.command;
}

// The transcript asks defaultFolded for every visible card on every frame;
// splitting a 64 KiB output each time would be the slowest thing on screen.
const bodyMemo = new WeakMap<ToolCard, string[]>();

/**
 * The logical, terminal-safe, uncoloured body lines of a foldable tool card:
 * a multi-line command in full (the header has room for its first line only),
 * then what the result shows, as text.
 */
export function foldableBodyLines(card: ToolCard): string[] {
  const hit = bodyMemo.get(card);
  if (hit) return hit;
  const lines: string[] = [];
  const cmd = commandOf(card);
  const cmdLines = cmd === undefined ? [] : screenText(cmd).split("\n");
  if (cmdLines.length > 1) lines.push(...cmdLines.map((l, i) => (i === 0 ? `$ ${l}` : `  ${l}`)));
  const result = resultDisplay(card);
  const output = result ? displayText(result) : "";
  // Command output keeps what a terminal would show of a line redrawn with \r.
  const trimmed = screenOutput(output).trimEnd();
  if (trimmed !== "") lines.push(...trimmed.split("\n"));
  bodyMemo.set(card, lines);
  return lines;
}
