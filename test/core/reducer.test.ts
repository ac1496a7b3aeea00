import { describe, expect, it } from "vitest";
import { createEmitter, type CoreEvent, type EventBody } from "../../core/events.js";
import { initialView, reduce, replayEvents } from "../../core/reducer.js";

function events(bodies: Array<EventBody & { turn?: number }>): CoreEvent[] {
  const out: CoreEvent[] = [];
  const { emit } = createEmitter("s1", (e) => out.push(e), () => new Date("2026-01-01T00:00:00Z"));
  for (const { turn, ...body } of bodies) emit(body as EventBody, turn === undefined ? undefined : { turn });
  return out;
}

describe("reduce", () => {
  it("builds numbered cards from a run", () => {
    const view = replayEvents(
      events([
        { type: "session_started", cwd: "/r", profile: "_base", provider: "scripted", model: "m", version: "1" },
        { type: "user_message", text: "fix it" },
        { type: "request_sent", requestId: "r1", provider: "scripted", model: "m", messageCount: 1, toolNames: [], turn: 0 },
        { type: "assistant_text_delta", text: "Let me ", turn: 0 },
        { type: "assistant_text_delta", text: "look.", turn: 0 },
        { type: "tool_call_started", callId: "c1", name: "read", turn: 0 },
        { type: "tool_call_args_delta", callId: "c1", delta: '{"path":', turn: 0 },
        { type: "tool_call_args_delta", callId: "c1", delta: '"a.js"}', turn: 0 },
        { type: "tool_call_finished", callId: "c1", name: "read", args: '{"path":"a.js"}', turn: 0 },
        { type: "tool_result", callId: "c1", name: "read", ok: true, modelText: "1: x", viewText: "1: x", durationMs: 3, turn: 0 },
        { type: "usage", usage: { inputTokens: 10, outputTokens: 2, cachedTokens: 0 }, total: { inputTokens: 10, outputTokens: 2, cachedTokens: 0 } },
        { type: "turn_finished", toolCalls: 1, turn: 0 },
        { type: "run_finished", reason: "done", message: "ok" },
      ]),
    );
    expect(view.cards.map((c) => [c.kind, c.num])).toEqual([
      ["user", 1],
      ["assistant", 2],
      ["tool", 3],
    ]);
    expect(view.cards[1]).toMatchObject({ text: "Let me look.", streaming: false });
    expect(view.cards[2]).toMatchObject({ argsText: '{"path":"a.js"}', status: "ok", modelText: "1: x", durationMs: 3 });
    expect(view.usage.total.inputTokens).toBe(10);
    expect(view.status).toBe("finished");
    expect(view.finish).toEqual({ reason: "done", message: "ok" });
    expect(view.request.state).toBe("idle");
  });

  it("never mutates the state it is given", () => {
    const [e1, e2] = events([
      { type: "user_message", text: "hi" },
      { type: "assistant_text_delta", text: "yo" },
    ]);
    const s0 = initialView();
    const frozen = JSON.stringify(s0);
    const s1 = reduce(s0, e1!);
    const s1Frozen = JSON.stringify(s1);
    reduce(s1, e2!);
    expect(JSON.stringify(s0)).toBe(frozen);
    expect(JSON.stringify(s1)).toBe(s1Frozen);
  });

  it("drops the partial output of a retried turn", () => {
    const view = replayEvents(
      events([
        { type: "user_message", text: "go" },
        { type: "assistant_text_delta", text: "half a sen", turn: 0 },
        { type: "tool_call_started", callId: "c1", name: "read", turn: 0 },
        { type: "retry", attempt: 1, delayMs: 1000, reason: "stream cut", discardedPartial: true, turn: 0 },
        { type: "assistant_text_delta", text: "Whole sentence.", turn: 0 },
      ]),
    );
    const kinds = view.cards.map((c) => c.kind);
    expect(kinds).toEqual(["user", "notice", "assistant"]);
    expect(view.cards[2]).toMatchObject({ text: "Whole sentence." });
  });

  it("tracks approvals, questions, jobs and todos", () => {
    let view = replayEvents(
      events([
        { type: "approval_requested", callId: "c1", tool: "bash", summary: "rm -rf build" },
        { type: "question_asked", callId: "c2", question: "Which DB?" },
        { type: "job_started", jobId: "j1", command: "npm test", background: true },
        { type: "job_output", jobId: "j1", text: "ok\n", totalBytes: 3 },
        { type: "todo_updated", todos: [{ description: "write tests", status: "in_progress" }] },
      ]),
    );
    expect(view.pendingApproval?.summary).toBe("rm -rf build");
    expect(view.pendingQuestion?.question).toBe("Which DB?");
    expect(view.jobs.j1).toMatchObject({ status: "running", output: "ok\n", totalBytes: 3, background: true });
    expect(view.todos).toHaveLength(1);
    const more = events([
      { type: "approval_resolved", callId: "c1", decision: "allow_once" },
      { type: "question_answered", callId: "c2", answer: "Postgres" },
      { type: "job_exited", jobId: "j1", exitCode: 0, durationMs: 1200, status: "exited" },
    ]);
    for (const e of more) view = reduce(view, e);
    expect(view.pendingApproval).toBeUndefined();
    expect(view.pendingQuestion).toBeUndefined();
    expect(view.jobs.j1).toMatchObject({ status: "exited", exitCode: 0, durationMs: 1200 });
  });

  it("shows errors and cancelled tools", () => {
    const view = replayEvents(
      events([
        { type: "tool_call_started", callId: "c1", name: "bash" },
        { type: "tool_result", callId: "c1", name: "bash", ok: false, modelText: "x", viewText: "x", durationMs: 1, cancelled: true },
        { type: "error", code: "provider", message: "anthropic: HTTP 500: boom" },
      ]),
    );
    expect(view.cards[0]).toMatchObject({ kind: "tool", status: "cancelled" });
    expect(view.cards[1]).toMatchObject({ kind: "notice", level: "error", text: "anthropic: HTTP 500: boom" });
  });

  it("shows a finished background job as one JOB RESULT card, and nothing for foreground commands", () => {
    const view = replayEvents(
      events([
        { type: "job_started", jobId: "j1", command: "npm run dev", background: true },
        { type: "job_started", jobId: "j2", command: "ls", background: false },
        { type: "job_exited", jobId: "j2", exitCode: 0, status: "exited" },
        { type: "job_exited", jobId: "j1", exitCode: 1, status: "exited" },
      ]),
    );
    expect(view.cards.filter((c) => c.kind === "notice")).toEqual([]);
    const jobs = view.cards.filter((c) => c.kind === "job");
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: "job", jobId: "j1", command: "npm run dev", how: "exit 1", failed: true });
  });
});
