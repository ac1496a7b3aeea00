import { describe, expect, it } from "vitest";
import { activityOf } from "../../components/activity.js";
import { initialView, type SessionView } from "../../core/reducer.js";

const NOW = Date.parse("2026-01-01T00:00:10.000Z");
const at = "2026-01-01T00:00:07.000Z";

function view(over: Partial<SessionView>): SessionView {
  return { ...initialView(), ...over };
}

describe("the activity line", () => {
  it("says what is happening, not the request's bytes", () => {
    expect(activityOf(view({ request: { state: "waiting", bytesReceived: 0, startedAt: at, retries: 0 } }), NOW, 0).text).toBe("waiting for the model 3.0s");
    expect(activityOf(view({ request: { state: "streaming", bytesReceived: 2048, startedAt: at, retries: 0 } }), NOW, 0).text).toBe(
      "receiving from the model 2.0 KB 3.0s",
    );
    const job = { jobId: "j1", command: "npm test", background: false, status: "running" as const, startedAt: at, output: "", totalBytes: 0 };
    const running = view({ jobs: { j1: job }, request: { state: "streaming", bytesReceived: 9, startedAt: at, retries: 0 } });
    expect(activityOf(running, NOW, 0).text).toBe("running npm test 3.0s");
    expect(activityOf(view({ jobs: { j1: { ...job, background: true } } }), NOW, 0).text).toBe("idle");
  });

  it("says when yuj waits for the user, what is queued, and a cancelled turn", () => {
    const approval = { type: "approval_requested", callId: "c", tool: "bash", summary: "rm", seq: 1, ts: at, sessionId: "s" } as unknown as SessionView["pendingApproval"];
    expect(activityOf(view({ pendingApproval: approval, request: { state: "streaming", bytesReceived: 9, startedAt: at, retries: 0 } }), NOW, 0)).toEqual({
      text: "waiting for your approval",
      tone: "attention",
    });
    const question = { type: "question_asked", callId: "c", question: "?", seq: 1, ts: at, sessionId: "s" } as unknown as SessionView["pendingQuestion"];
    expect(activityOf(view({ pendingQuestion: question }), NOW, 2).text).toBe("waiting for your answer · 2 messages queued");
    expect(activityOf(view({ status: "finished", finish: { reason: "cancelled" } }), NOW, 0)).toEqual({ text: "CANCELLED", tone: "cancelled" });
  });
});
