// savings.jsonl of a measured task: how many characters each context
// mechanism kept out of the model's requests. One row per cut tool result
// (truncation: the full output's size against what the model was sent), and
// per session one row for each of think removal, rewind and compaction: the
// characters every request of the main conversation would have carried
// without that mechanism, against what it carried. Both are counted from
// the recorded history and files, so they are exact; a cut result whose full
// output file is gone is left out rather than guessed.

import { existsSync, statSync } from "node:fs";
import { requestHistory } from "../../core/compaction.js";
import { replay, type ConversationRoles } from "../../core/context/shape.js";
import type { HistoryItem } from "../../core/history.js";
import { readSession } from "../../core/session-state.js";
import type { SessionRun } from "./checkpoint.js";
import { sessionRows } from "./metrics.js";

export interface SavingsRow {
  bucket: "tool_output" | "conversation";
  layer: "tool_result" | "request";
  mechanism: "truncation" | "think_removal" | "rewind" | "compaction";
  input_chars: number;
  output_chars: number;
  measure_type: "exact" | "estimate";
  ctx: Record<string, string | number>;
}

export function computeSavings(runs: SessionRun[], roles: ConversationRoles, thinkKeepTurns: number): SavingsRow[] {
  const rows: SavingsRow[] = [...truncations(runs)];
  for (const dir of new Set(runs.map((r) => r.sessionDir))) {
    const history = readSession(dir)?.state.history ?? [];
    rows.push(...viewSavings(history, roles, thinkKeepTurns, { session: dir }));
  }
  return rows;
}

/** Tool results cut at the output limit: the whole output went to a file, the model got the bounded text. */
function truncations(runs: SessionRun[]): SavingsRow[] {
  const out: SavingsRow[] = [];
  for (const trace of sessionRows(runs)) {
    for (const row of trace) {
      const file = row.fullOutputPath;
      if (row.type !== "tool_result" || typeof file !== "string" || !existsSync(file)) continue;
      out.push({
        bucket: "tool_output",
        layer: "tool_result",
        mechanism: "truncation",
        // The file's size in bytes is its length in characters for the ASCII most output is; a multibyte file counts a little high.
        input_chars: statSync(file).size,
        output_chars: String(row.modelText).length,
        measure_type: "exact",
        ctx: { session: row.sessionId, agent: row.agentId, callId: String(row.callId), tool: String(row.name) },
      });
    }
  }
  return out;
}

/**
 * Replays every request of the conversation: each assistant reply answered a
 * request made of the history before it. For each mechanism, the request as
 * it was shaped against the request shaped without that mechanism alone.
 */
export function viewSavings(history: readonly HistoryItem[], roles: ConversationRoles, thinkKeepTurns: number, ctx: Record<string, string>): SavingsRow[] {
  const noRewind = { ...roles, rewind: new Set<string>() };
  const sent = (items: readonly HistoryItem[], r: ConversationRoles, keep: number) => chars(requestHistory(replay(items, { roles: r, thinkKeepTurns: keep }).view));
  const totals = { actual: 0, think: 0, rewind: 0, compaction: 0, requests: 0 };
  for (let i = 0; i < history.length; i++) {
    if (history[i]!.role !== "assistant") continue;
    const prefix = history.slice(0, i);
    totals.requests++;
    totals.actual += sent(prefix, roles, thinkKeepTurns);
    totals.think += sent(prefix, roles, Number.MAX_SAFE_INTEGER);
    totals.rewind += sent(prefix, noRewind, thinkKeepTurns);
    totals.compaction += sent(prefix.filter((h) => h.role !== "summary"), roles, thinkKeepTurns);
  }
  const row = (mechanism: SavingsRow["mechanism"], without: number): SavingsRow => ({
    bucket: "conversation",
    layer: "request",
    mechanism,
    input_chars: without,
    output_chars: totals.actual,
    measure_type: "exact",
    ctx: { ...ctx, requests: totals.requests },
  });
  return [row("think_removal", totals.think), row("rewind", totals.rewind), row("compaction", totals.compaction)].filter((r) => r.input_chars !== r.output_chars);
}

/** What a request carries of an item: its text, its calls' names and arguments, a result's text. */
function chars(items: readonly HistoryItem[]): number {
  let n = 0;
  for (const item of items) {
    n += item.text.length;
    if (item.role === "assistant") for (const c of item.toolCalls) n += c.name.length + c.args.length;
  }
  return n;
}
