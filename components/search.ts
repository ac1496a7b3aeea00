// Transcript search: the text a card is searched by, and the next match
// from the focused card in either direction.

import type { Card } from "../core/reducer.js";
import { displayText } from "../core/display-text.js";

/** What a tool card's result shows, as text: its display, or an earlier version's view text. */
function shownText(card: Extract<Card, { kind: "tool" }>): string {
  return card.display ? displayText(card.display) : (card.viewText ?? "");
}

function cardText(card: Card): string {
  switch (card.kind) {
    case "user":
    case "assistant":
      return card.text;
    case "tool":
      return `${card.name} ${card.argsText} ${shownText(card)}`;
    case "notice":
      return card.text;
    case "job":
      return `${card.command} ${card.how} ${card.tail}`;
  }
}

/** One-line label for the card directory. */
export function cardLabel(card: Card): string {
  const first = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 80);
  switch (card.kind) {
    case "user":
      return `USER #${card.num}  ${first(card.text)}`;
    case "assistant":
      return `ASSISTANT #${card.num}  ${first(card.text)}`;
    case "tool":
      return `TOOL CALL #${card.num}  ${card.name} ${first(card.argsText)}`;
    case "notice":
      return `NOTICE #${card.num}  ${first(card.text)}`;
    case "job":
      return `JOB RESULT #${card.num}  ${first(card.command)} (${card.how})`;
  }
}

/**
 * The number of the next card matching `query` (case-insensitive), searching
 * older cards ("back") or newer ones ("forward") from `from`, wrapping around.
 */
export function findMatch(cards: readonly Card[], query: string, from: number | undefined, direction: "back" | "forward"): number | undefined {
  if (!query || cards.length === 0) return undefined;
  const needle = query.toLowerCase();
  const start = from === undefined ? cards.length : cards.findIndex((c) => c.num === from);
  const n = cards.length;
  for (let step = 1; step <= n; step++) {
    const i = direction === "back" ? (((start - step) % n) + n) % n : (start + step) % n;
    const card = cards[i]!;
    if (cardText(card).toLowerCase().includes(needle)) return card.num;
  }
  return undefined;
}
