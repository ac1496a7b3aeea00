// Guardrails of the loop. A guard may end the run before a request. The other
// two are read from the history itself so they hold the
// same way after a resume:
// * a run stops when the model's last N calls were one call repeated (same
//   tool, same arguments): a model in that rut would spend every turn left;
// * after N failed calls in a row the next request carries a short nudge,
//   so the model steps back instead of retrying the same thing. The nudge is
//   a user row of the history, which also ends the streak it answers.

import type { Guard } from "./guards/types.js";
import type { HistoryItem, ToolCall } from "./history.js";

/** The first reason a loop guard gives to end the run before the next request (plan mode out of turns). */
export function guardStop(guards: readonly Guard[] | undefined): string | undefined {
  for (const g of guards ?? []) {
    const why = g.stopRun?.();
    if (why) return why;
  }
  return undefined;
}

/** The run's end when the last `limit` calls are one call repeated; 0 turns it off. */
export function duplicateStop(history: readonly HistoryItem[], limit: number): string | undefined {
  if (limit < 2) return undefined;
  const calls: ToolCall[] = [];
  for (let i = history.length - 1; i >= 0 && calls.length < limit; i--) {
    const item = history[i]!;
    if (item.role === "user" || item.role === "summary") break;
    if (item.role === "assistant") calls.unshift(...item.toolCalls.slice(-(limit - calls.length)));
  }
  if (calls.length < limit) return undefined;
  const key = callKey(calls[0]!);
  if (!calls.every((c) => callKey(c) === key)) return undefined;
  return `stopped: the model made the same call ${limit} times in a row (${calls[0]!.name} with the same arguments) ([loop].duplicate_abort)`;
}

/** Same tool and same arguments, whatever their key order or spacing. */
function callKey(call: ToolCall): string {
  try {
    return `${call.name}\u0000${JSON.stringify(sorted(JSON.parse(call.args)))}`;
  } catch {
    return `${call.name}\u0000${call.args}`;
  }
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}

/** The nudge the next request carries after `threshold` failed calls in a row; 0 turns it off. */
export function errorNudge(history: readonly HistoryItem[], threshold: number): string | undefined {
  if (threshold < 1) return undefined;
  let failed = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.role === "user" || item.role === "summary") break;
    if (item.role !== "tool") continue;
    if (!item.isError) break;
    failed++;
  }
  if (failed < threshold) return undefined;
  return `[yuj] The last ${failed} tool calls failed. Stop and reread the errors: check the paths, the arguments and your assumptions, or try a different approach, before calling again.`;
}
