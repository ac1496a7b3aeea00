// /stats' figures from the view: tokens, the cost at the model's list price
// (none for a model whose price is not known), wall time and requests.

import { describe, expect, it } from "vitest";
import { costOf } from "../../core/prices.js";
import { initialView, reduce, type SessionView } from "../../core/reducer.js";
import type { CoreEvent } from "../../core/events.js";
import { statsLines } from "../../components/stats.js";

const base = { sessionId: "s", agentId: "main" };
let seq = 0;
const ev = (body: Record<string, unknown>, ts = "2026-01-01T00:00:00.000Z") => ({ ...base, seq: ++seq, ts, ...body }) as CoreEvent;

function viewAfter(events: CoreEvent[]): SessionView {
  return events.reduce(reduce, initialView());
}

describe("stats", () => {
  it("prices a known model by its longest prefix and knows no price for others", () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedTokens: 0 };
    expect(costOf("gpt-5-mini-2025", usage)).toBeCloseTo(2.25);
    expect(costOf("gpt-5", usage)).toBeCloseTo(11.25);
    expect(costOf("claude-sonnet-4-5", { inputTokens: 1200, outputTokens: 340, cachedTokens: 200 })).toBeCloseTo(0.00816);
    expect(costOf("my-local-model", usage)).toBeUndefined();
  });

  it("lists tokens, cost, wall time and requests", () => {
    const view = viewAfter([
      ev({ type: "session_started", cwd: "/p", profile: "_base", provider: "openai", model: "local-q", version: "1" }),
      ev({ type: "request_sent", model: "local-q", items: 1 }),
      ev({ type: "request_sent", model: "local-q", items: 3 }),
      ev({ type: "usage", usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 2 }, total: { inputTokens: 2500, outputTokens: 40, cachedTokens: 100 } }),
    ]);
    const lines = statsLines(view, Date.parse("2026-01-01T00:01:05.000Z"));
    expect(lines).toContain("tokens in   2,500 (100 cached)");
    expect(lines).toContain("tokens out  40");
    expect(lines).toContain("cost        not known for local-q");
    expect(lines).toContain("requests    2");
    expect(lines).toContain("wall time   1m05s");
  });
});
