// A session whose process was killed mid-turn can leave tool calls in its
// history with no result: the call may have run in part, fully, or not at
// all, and nobody knows which. Every provider refuses such a history, and
// running the call again could repeat a side effect, so each one gets an
// error result that tells the model to look before it retries. Results that
// were saved are never touched: a completed call is never run twice.

import type { HistoryItem } from "./history.js";

export const INTERRUPTED_TEXT =
  "ERROR: interrupted: yuj stopped before this call finished; check its effects before retrying";

/**
 * Adds an interrupted result after each call that has none, except the calls
 * in `waiting` (an approval or a question that will give them their result).
 * Returns the ids it closed; `history` is changed in place.
 */
export function closeInterruptedCalls(history: HistoryItem[], waiting: ReadonlySet<string> = new Set()): string[] {
  const answered = new Set<string>();
  for (const item of history) if (item.role === "tool") answered.add(item.callId);
  const closed: string[] = [];
  // Walk backwards so inserting after an assistant item never shifts one not yet seen.
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.role !== "assistant") continue;
    const missing = item.toolCalls.filter((c) => !answered.has(c.id) && !waiting.has(c.id));
    if (missing.length === 0) continue;
    // After the results the turn already has, so each call's result stays in its turn.
    let at = i + 1;
    while (at < history.length && history[at]!.role === "tool") at++;
    const results: HistoryItem[] = missing.map((c) => ({ role: "tool", callId: c.id, name: c.name, text: INTERRUPTED_TEXT, isError: true }));
    history.splice(at, 0, ...results);
    closed.unshift(...missing.map((c) => c.id));
  }
  return closed;
}

/**
 * Puts a result that arrives after the process that made the call has ended
 * (the answer to a question) into its turn, in call order, so the history
 * reads as if it had come at once. Appends it when the call is not found.
 */
export function placeLateResult(history: HistoryItem[], result: Extract<HistoryItem, { role: "tool" }>): void {
  const turn = history.findIndex((h) => h.role === "assistant" && h.toolCalls.some((c) => c.id === result.callId));
  if (turn < 0) {
    history.push(result);
    return;
  }
  const calls = (history[turn] as Extract<HistoryItem, { role: "assistant" }>).toolCalls;
  const order = new Map(calls.map((c, i) => [c.id, i]));
  const mine = order.get(result.callId)!;
  let at = turn + 1;
  while (at < history.length) {
    const item = history[at]!;
    if (item.role !== "tool" || (order.get(item.callId) ?? -1) > mine) break;
    at++;
  }
  history.splice(at, 0, result);
}
