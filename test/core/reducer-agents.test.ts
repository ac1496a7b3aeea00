// The agents as the view shows them: the delegate card following its task in
// place, each worker's own numbered transcript, the side panel's states, and
// a worker's approval waiting in the main view past the main agent's turn.

import { describe, expect, it } from "vitest";
import { createEmitter, type CoreEvent, type EventBody } from "../../core/events.js";
import { replayEvents, type Card } from "../../core/reducer.js";

/** Events as the session emits them: the main agent's, and each worker's from its own emitter (its own seq). */
function session() {
  const out: CoreEvent[] = [];
  const clock = { t: Date.parse("2026-01-01T00:00:00Z") };
  const now = () => new Date((clock.t += 1000));
  const main = createEmitter("s1", (e) => out.push(e), now);
  const workers = new Map<string, ReturnType<typeof createEmitter>>();
  return {
    out,
    main: (body: EventBody) => main.emit(body),
    worker(taskId: string, body: EventBody) {
      if (!workers.has(taskId)) workers.set(taskId, createEmitter("s1", (e) => out.push(e), now));
      workers.get(taskId)!.emit(body, { agentId: taskId });
    },
  };
}

const delegateCall = (s: ReturnType<typeof session>, callId: string) => {
  s.main({ type: "tool_call_started", callId, name: "delegate", view: { card: "expanded" } });
  s.main({ type: "tool_call_finished", callId, name: "delegate", args: '{"agent_type":"builder","description":"x"}' });
};
type Update = Extract<EventBody, { type: "agent_update" }>;
const update = (taskId: string, state: Update["state"], what: Update["what"], extra: { text?: string; callId?: string } = {}): EventBody => ({
  type: "agent_update",
  taskId,
  agentType: "builder",
  workerId: `${taskId}.a1`,
  state,
  what,
  ...extra,
});
const tools = (cards: Card[]) => cards.filter((c): c is Extract<Card, { kind: "tool" }> => c.kind === "tool");

describe("the delegate card follows its task in place", () => {
  it("one card per delegate call: started, parked, done all update it, and no second result card appears", () => {
    const s = session();
    s.main({ type: "session_started", cwd: "/r", profile: "chord", provider: "scripted", model: "m", version: "1" });
    s.main({ type: "user_message", text: "go" });
    delegateCall(s, "c1");
    s.main(update("task-1", "running", "started", { text: "write a.txt", callId: "c1" }));
    s.main({ type: "tool_result", callId: "c1", name: "delegate", ok: true, modelText: '{"task_id":"task-1"}', display: { kind: "text", text: "task-1 started (builder)" }, durationMs: 1 });
    const started = replayEvents(s.out);
    expect(tools(started.cards)).toHaveLength(1);
    expect(tools(started.cards)[0]).toMatchObject({ status: "ok", task: { taskId: "task-1", state: "running", text: "write a.txt" } });

    s.main(update("task-1", "waiting_main", "message", { text: "which file?" }));
    expect(tools(replayEvents(s.out).cards)[0]!.task).toMatchObject({ state: "parked", text: "which file?" });

    s.main(update("task-1", "running", "resumed"));
    s.main(update("task-1", "completed", "completed", { text: "wrote a.txt" }));
    const done = replayEvents(s.out);
    const delegateCards = tools(done.cards);
    expect(delegateCards).toHaveLength(1);
    expect(delegateCards[0]).toMatchObject({ callId: "c1", task: { taskId: "task-1", state: "done", text: "wrote a.txt" } });
    // The completion is the owner's AGENT COMPLETE notice, not a second delegate result.
    expect(done.cards.filter((c) => c.kind === "notice" && c.text.startsWith("AGENT COMPLETE task-1"))).toHaveLength(1);
  });

  it("two delegate calls each follow their own task", () => {
    const s = session();
    delegateCall(s, "c1");
    s.main(update("task-1", "running", "started", { callId: "c1" }));
    delegateCall(s, "c2");
    s.main(update("task-2", "running", "started", { callId: "c2" }));
    s.main(update("task-1", "failed", "blocked", { text: "no access" }));
    s.main(update("task-2", "completed", "completed", { text: "ok" }));
    const [one, two] = tools(replayEvents(s.out).cards);
    expect(one).toMatchObject({ callId: "c1", task: { taskId: "task-1", state: "failed", text: "no access" } });
    expect(two).toMatchObject({ callId: "c2", task: { taskId: "task-2", state: "done", text: "ok" } });
  });
});

describe("each agent's own view", () => {
  it("a worker's events build its own numbered cards and leave the main view alone", () => {
    const s = session();
    s.main({ type: "session_started", cwd: "/r", profile: "chord", provider: "scripted", model: "m", version: "1" });
    s.main({ type: "user_message", text: "go" });
    s.worker("task-1", { type: "session_started", cwd: "/r", profile: "chord", provider: "scripted", model: "m", version: "worker", agent: "builder" });
    s.main(update("task-1", "running", "started"));
    s.worker("task-1", { type: "user_message", text: "You are task-1" });
    s.worker("task-1", { type: "assistant_text_delta", text: "working on it" });
    s.worker("task-1", { type: "usage", usage: { inputTokens: 40, outputTokens: 5, cachedTokens: 0 }, total: { inputTokens: 40, outputTokens: 5, cachedTokens: 0 } });
    const view = replayEvents(s.out);
    expect(view.cards.map((c) => c.kind)).toEqual(["user"]);
    const worker = view.agents["task-1"]!;
    expect(worker).toMatchObject({ role: "builder", kind: "worker", state: "running" });
    expect(worker.view.cards.map((c) => [c.kind, c.num])).toEqual([
      ["user", 1],
      ["assistant", 2],
    ]);
    expect(worker.view.usage.total).toMatchObject({ inputTokens: 40, outputTokens: 5 });
    // The worker's own sequence numbers never move the main view's.
    expect(view.lastEventSeq).toBe(3);
  });

  it("states: an escalation parks, a notify waits, done and failed keep when they ended", () => {
    const s = session();
    s.main(update("task-1", "running", "started"));
    s.main(update("task-2", "running", "started"));
    s.main(update("task-1", "waiting_main", "message"));
    s.main(update("task-2", "idle", "message"));
    let view = replayEvents(s.out);
    expect([view.agents["task-1"]!.state, view.agents["task-2"]!.state]).toEqual(["parked", "waiting"]);
    s.main(update("task-1", "completed", "completed"));
    s.main(update("task-2", "failed", "failed"));
    view = replayEvents(s.out);
    expect([view.agents["task-1"]!.state, view.agents["task-2"]!.state]).toEqual(["done", "failed"]);
    expect(view.agents["task-1"]!.endedAt).toBeDefined();
    expect(Object.keys(view.agents)).toEqual(["task-1", "task-2"]);
  });

  it("a task child is running from its start and done when its run ends with an answer", () => {
    const s = session();
    s.worker("task-1", { type: "session_started", cwd: "/r", profile: "yuj", provider: "scripted", model: "m", version: "child", agent: "explorer" });
    expect(replayEvents(s.out).agents["task-1"]).toMatchObject({ kind: "child", role: "explorer", state: "running" });
    s.worker("task-1", { type: "run_finished", reason: "answered" });
    expect(replayEvents(s.out).agents["task-1"]).toMatchObject({ state: "done" });
  });
});

describe("a worker's approval in the main view", () => {
  const ask = (callId: string, taskId?: string): EventBody => ({
    type: "approval_requested",
    callId,
    tool: "shell",
    summary: `run ${callId}`,
    ...(taskId ? { agent: { taskId, role: "builder" } } : {}),
  });

  it("outlives the main agent's turn; two at once wait in order; each answer brings the next", () => {
    const s = session();
    s.main({ type: "user_message", text: "go" });
    s.main(ask("w1", "task-1"));
    s.main(ask("w2", "task-2"));
    s.main({ type: "turn_finished", toolCalls: 2 });
    let view = replayEvents(s.out);
    expect(view.pendingApproval).toMatchObject({ callId: "w1", agent: { taskId: "task-1" } });
    expect(view.queuedApprovals?.map((q) => q.callId)).toEqual(["w2"]);
    s.main({ type: "approval_resolved", callId: "w1", decision: "allow_once" });
    view = replayEvents(s.out);
    expect(view.pendingApproval).toMatchObject({ callId: "w2", agent: { taskId: "task-2" } });
    s.main({ type: "approval_resolved", callId: "w2", decision: "reject" });
    expect(replayEvents(s.out).pendingApproval).toBeUndefined();
  });

  it("the main agent's own approval still ends with its turn", () => {
    const s = session();
    s.main(ask("m1"));
    s.main({ type: "turn_finished", toolCalls: 1 });
    expect(replayEvents(s.out).pendingApproval).toBeUndefined();
  });
});
