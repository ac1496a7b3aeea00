// Control cards: a tool whose call carries a report that can run to pages
// (the finish report) names the argument that holds it. While its JSON still
// streams, parsing or rendering it would be wasted work on every delta, so
// the card says only how much has arrived ("N chars received"); once
// complete, the prose is the card body, rendered as Markdown.

import { displayText } from "../../core/display-text.js";
import { resultDisplay, type ToolCard } from "./fold.js";
import { parseArgs } from "./header.js";
import { plainLines, renderMarkdown } from "./markdown.js";
import { screenText } from "../../core/text/safe.js";
import { wrapPrefixed } from "../../core/text/wrap.js";
import { palette } from "./paint.js";

export function receivedLine(chars: number): string {
  return `${chars.toLocaleString("en-US")} chars received`;
}

/** Body lines of a control card. */
export function controlBody(card: ToolCard, width: number, color: boolean): string[] {
  const p = palette(color);
  if (card.status === "streaming") return [p.dim(receivedLine(card.argsText.length))];
  const args = parseArgs(card.argsText);
  const rows: string[] = [];
  if (!args) {
    // Not JSON after all: show what was sent rather than nothing.
    rows.push(...plainLines(card.argsText, width));
  } else {
    const field = card.view?.controlField;
    const prose = field !== undefined && typeof args[field] === "string" ? (args[field] as string) : "";
    if (prose.trim() !== "") rows.push(...renderMarkdown(prose, width, color));
    else rows.push(p.dim("(no report)"));
  }
  if (card.status === "error" || card.status === "cancelled") {
    const shown = resultDisplay(card);
    const result = (shown ? displayText(shown) : "").trim();
    if (result !== "") {
      rows.push("");
      for (const line of screenText(result).split("\n")) rows.push(...wrapPrefixed("", line, width, p.red));
    }
  }
  return rows;
}
