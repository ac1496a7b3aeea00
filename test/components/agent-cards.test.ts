// A worker's completion raises AGENT COMPLETE in its owner's view and a
// terminal failure AGENT BLOCKED; its other updates add no card.

import { describe, expect, it } from "vitest";
import { replayEvents } from "../../core/reducer.js";
import type { CoreEvent } from "../../core/events.js";

const update = (seq: number, what: string, state: string, text?: string) =>
  ({ seq, ts: "2026-01-01T00:00:00.000Z", sessionId: "s", agentId: "main", type: "agent_update", taskId: "task-1", agentType: "builder", workerId: "task-1.a", state, what, ...(text ? { text } : {}) }) as unknown as CoreEvent;

describe("agent cards", () => {
  it("shows AGENT COMPLETE and AGENT BLOCKED with the task and its words", () => {
    const view = replayEvents([update(1, "started", "running", "the job"), update(2, "completed", "completed", "wrote a.txt"), update(3, "blocked", "failed", "the disk is read-only")]);
    const texts = view.cards.map((c) => ("text" in c ? c.text : ""));
    expect(texts).toEqual(["AGENT COMPLETE task-1 (builder)\nwrote a.txt", "AGENT BLOCKED task-1 (builder)\nthe disk is read-only"]);
  });
});
