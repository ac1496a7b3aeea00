// A display as events carry it: every string passed through the session's
// redaction (a file read or a command's output may hold a secret), and the
// whole cut to a character budget. The cut is the same for every kind: the
// display is walked in order and strings and lists are shortened once the
// budget is spent, so the first lines of a file or the first matches stay.

import type { ToolDisplay } from "./display-schema.js";

const CUT_MARK = "…";
/** Strings this short are kept whatever the budget: a kind, a status, a short path. */
const ALWAYS_KEPT = 32;

type Json = string | number | boolean | null | undefined | Json[] | { [k: string]: Json };

export function boundDisplay(display: ToolDisplay, maxChars: number, redact: (text: string) => string = (t) => t): ToolDisplay {
  const budget = { left: Math.max(0, maxChars) };
  return walk(display as unknown as Json, budget, redact) as unknown as ToolDisplay;
}

function walk(value: Json, budget: { left: number }, redact: (text: string) => string): Json {
  if (typeof value === "string") {
    const text = redact(value);
    if (text.length <= budget.left || text.length <= ALWAYS_KEPT) {
      budget.left -= text.length;
      return text;
    }
    const kept = text.slice(0, budget.left);
    budget.left = 0;
    return kept + CUT_MARK;
  }
  if (Array.isArray(value)) {
    const out: Json[] = [];
    for (const item of value) {
      if (budget.left <= 0) break;
      out.push(walk(item, budget, redact));
    }
    return out;
  }
  if (value && typeof value === "object") {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, budget, redact);
    return out;
  }
  return value;
}
