// A resumed TUI session shows its agents again: each worker's and task
// child's own trace is replayed into its own view, after the main one.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEmitter, type EventBody } from "../../core/events.js";
import { openTrace } from "../../core/trace.js";
import { createViewStore } from "../../components/view-store.js";
import { replayInto } from "../../app/tui/replay.js";

function writeTrace(file: string, agentId: string, bodies: EventBody[]): void {
  const trace = openTrace(file);
  const { emit } = createEmitter("s1", (e) => trace.write(e));
  for (const b of bodies) emit(b, { agentId });
  trace.close();
}

const started = (version: string, agent?: string): EventBody => ({ type: "session_started", cwd: "/r", profile: "p", provider: "scripted", model: "m", version, ...(agent ? { agent } : {}) });

describe("replaying a stored session into the view", () => {
  it("brings back each agent's own transcript; a child's run the process never ended reads as interrupted", () => {
    const dir = mkdtempSync(join(tmpdir(), "yuj-replay-"));
    writeTrace(join(dir, "trace.jsonl"), "main", [
      started("1"),
      { type: "user_message", text: "go" },
      { type: "agent_update", taskId: "task-2", agentType: "builder", workerId: "task-2.x", state: "completed", what: "completed", text: "built" },
      { type: "run_finished", reason: "answered" },
    ]);
    writeTrace(join(dir, "tasks", "task-1", "trace.jsonl"), "task-1", [started("child", "explorer"), { type: "user_message", text: "look around" }]);
    writeTrace(join(dir, "tasks", "task-2", "trace.jsonl"), "task-2", [started("worker", "builder"), { type: "user_message", text: "You are task-2" }]);
    const store = createViewStore();
    replayInto(store, dir);
    const view = store.get();
    expect(view.cards.map((c) => c.kind)).toEqual(["user", "notice"]);
    expect(Object.keys(view.agents)).toEqual(["task-2", "task-1"]);
    expect(view.agents["task-1"]).toMatchObject({ kind: "child", role: "explorer", state: "cancelled" });
    expect(view.agents["task-1"]!.view.cards[0]).toMatchObject({ kind: "user", text: "look around" });
    expect(view.agents["task-2"]).toMatchObject({ kind: "worker", role: "builder", state: "done" });
    expect(view.agents["task-2"]!.view.cards[0]).toMatchObject({ kind: "user", text: "You are task-2" });
  });
});
