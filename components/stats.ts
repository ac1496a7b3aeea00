// What /stats and `$` show: the session's tokens (in, out, cached), the
// cost where the model's price is known, the wall time and the requests.
// Pure: the view and the clock in, lines out.

import { costOf } from "../core/prices.js";
import type { SessionView } from "../core/reducer.js";
import { formatElapsed, since } from "./theme.js";

const n = (v: number) => v.toLocaleString("en-US");

export function statsLines(view: SessionView, now: number): string[] {
  const { total } = view.usage;
  const cost = costOf(view.model, total);
  const rows: Array<[string, string]> = [
    ["model", `${view.model ?? "unknown"}${view.provider ? ` (${view.provider})` : ""}`],
    ["tokens in", `${n(total.inputTokens)} (${n(total.cachedTokens)} cached)`],
    ["tokens out", n(total.outputTokens)],
    ["cost", cost === undefined ? `not known for ${view.model ?? "this model"}` : `$${cost.toFixed(4)} (list price estimate)`],
    ["wall time", formatElapsed(since(view.facts.startedAt, now))],
    ["requests", n(view.facts.requests)],
    ["turns", n(view.turn)],
  ];
  return rows.map(([k, v]) => `${k.padEnd(12)}${v}`);
}
