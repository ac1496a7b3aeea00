// What savings.jsonl counts for the conversation's own mechanisms, on a
// recorded history: the characters a rewind and a compaction kept out of the
// requests that followed them, exactly.

import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../core/history.js";
import { viewSavings } from "../../app/measure/savings.js";

const roles = { think: new Set(["think"]), checkpoint: new Set(["checkpoint"]), rewind: new Set(["rewind"]), todos: new Set<string>() };
const call = (id: string, name: string, args: object) => ({ id, name, args: JSON.stringify(args) });
const result = (callId: string, name: string, text: string): HistoryItem => ({ role: "tool", callId, name, text, isError: false });

describe("conversation savings", () => {
  it("a rewind: the exploration after the checkpoint, in each request after the rewind", () => {
    const read = call("c2", "read", { path: "big.txt" });
    const exploring: HistoryItem = { role: "assistant", text: "exploring", toolCalls: [read] };
    const history: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "", toolCalls: [call("c1", "checkpoint", { goal: "look" })] },
      result("c1", "checkpoint", "ok"),
      exploring,
      result("c2", "read", "R".repeat(1000)),
      { role: "assistant", text: "", toolCalls: [call("c3", "rewind", { report: "found it" })] },
      result("c3", "rewind", "rewound"),
      { role: "assistant", text: "", toolCalls: [call("c4", "done", { message: "m" })] },
    ];
    const rows = viewSavings(history, roles, 4, { session: "s" });
    expect(rows.map((r) => r.mechanism)).toEqual(["rewind"]);
    const exploration = "exploring".length + "read".length + read.args.length + 1000;
    // Only the last request (for the done turn) came after the rewind.
    expect(rows[0]!.input_chars - rows[0]!.output_chars).toBe(exploration);
    expect(rows[0]!.ctx.requests).toBe(4);
    expect(rows[0]!.measure_type).toBe("exact");
  });

  it("a compaction: the summarised turns against the summary, in each request after it", () => {
    const history: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "a".repeat(3000), toolCalls: [] },
      { role: "summary", text: "short" },
      { role: "user", text: "next" },
      { role: "assistant", text: "b", toolCalls: [] },
      { role: "user", text: "again" },
      { role: "assistant", text: "c", toolCalls: [] },
    ];
    const [row] = viewSavings(history, roles, 4, { session: "s" });
    expect(row!.mechanism).toBe("compaction");
    // Two requests after the summary each left out the 3,004 characters it stands for and carried the summary instead.
    const saved = row!.input_chars - row!.output_chars;
    expect(saved).toBeGreaterThan(2 * 3000 - 200);
    expect(saved).toBeLessThan(2 * 3004);
  });
});
