// A card as plain text, for the clipboard (yy): what the card says, without
// colours or frame. Pure.

import type { Card } from "../core/reducer.js";

export function cardText(card: Card): string {
  switch (card.kind) {
    case "user":
    case "assistant":
    case "notice":
      return card.text;
    case "job":
      return `${card.command} (${card.how})\n${card.tail}`;
    case "tool": {
      const head = `${card.name}${card.summary ? ` ${card.summary}` : ""}`;
      const body = card.viewText ?? card.modelText ?? "";
      return body ? `${head}\n${body}` : head;
    }
  }
}
