// The session controller: operations in, events out, and the state a run
// leaves saved the same way whoever drives it. Real tools, real files, real
// jobs and the real permission gate; only the model is scripted.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CoreEvent } from "../../core/events.js";
import { controlledSession, type ControlledSession } from "../support/controller-harness.js";

const rmBuild = { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] };
const finish = (message: string) => ({ tool_calls: [{ name: "done", arguments: { message } }] });
const askUser = { tool_calls: [{ name: "ask_user", arguments: { question: "Which port?" } }] };

let open: ControlledSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function session(turns: unknown[], opts?: Parameters<typeof controlledSession>[1]): ControlledSession {
  open = controlledSession(turns, opts);
  mkdirSync(join(open.cwd, "build"));
  writeFileSync(join(open.cwd, "build", "out.js"), "x");
  return open;
}

const results = (events: CoreEvent[]) => events.flatMap((e) => (e.type === "tool_result" ? [e] : []));

describe("the session controller", () => {
  it("waits for approval_answer while an operator is attached; allow_always stores the exact rule in the session", async () => {
    const s = session([rmBuild, rmBuild, finish("cleaned")]);
    s.controller.submit({ type: "user_message", text: "clean" });
    const asked = await s.next("approval_requested");
    expect(s.controller.running()).toBe(true);
    expect(existsSync(join(s.cwd, "build"))).toBe(true);
    expect(s.controller.submit({ type: "approval_answer", decision: "allow_always" })).toBeUndefined();
    await s.controller.idle();
    expect(existsSync(join(s.cwd, "build"))).toBe(false);
    // The second rm met the stored rule: asked once only.
    expect(s.events.filter((e) => e.type === "approval_requested")).toHaveLength(1);
    expect(s.events.find((e) => e.type === "approval_resolved")).toMatchObject({ callId: (asked as { callId: string }).callId, decision: "allow_always" });
    const saved = s.saved();
    expect(saved.sessionRules).toEqual([{ tool: "bash", pattern: "rm -rf build", action: "allow", source: "session" }]);
    expect(saved).toMatchObject({ status: "done", lastReason: "done", lastMessage: "cleaned" });
    expect(saved.pid).toBeUndefined();
  });

  it("sends reject_with_message back to the model as the call's result", async () => {
    const s = session([rmBuild, finish("kept")]);
    s.controller.submit({ type: "user_message", text: "clean" });
    await s.next("approval_requested");
    s.controller.submit({ type: "approval_answer", decision: "reject_with_message", message: "keep it" });
    await s.controller.idle();
    expect(results(s.events)[0]!.modelText).toBe("ERROR: the user rejected this call (bash: rm -rf build): keep it");
    expect(existsSync(join(s.cwd, "build", "out.js"))).toBe(true);
  });

  it("refuses an answer nothing waits for, with an error event naming it, and changes nothing", async () => {
    const s = session([rmBuild, finish("x")]);
    expect(s.controller.submit({ type: "approval_answer", decision: "allow_once" })).toBe("no approval is waiting");
    s.controller.submit({ type: "user_message", text: "clean" });
    await s.next("approval_requested");
    expect(s.controller.submit({ type: "approval_answer", callId: "nope", decision: "allow_once" }, "stdin line 4")).toMatch(
      /^stdin line 4: no approval waits for call nope \(waiting: call_0_0\)$/,
    );
    expect(s.controller.submit({ type: "question_answer", answer: "8080" })).toBe("no question is waiting");
    expect(s.controller.submit({ type: "kill_job", jobId: "j9" })).toBe("no job j9 in this session");
    // A value that is not an operation is checked as a line from stdin is.
    expect(s.controller.submit({ type: "approval_answer", decision: "maybe" } as never)).toMatch(/^approval_answer: decision must be one of/);
    const errors = s.events.filter((e) => e.type === "error");
    expect(errors.map((e) => (e as { code: string }).code)).toEqual(["bad_operation", "bad_operation", "bad_operation", "bad_operation", "bad_operation"]);
    expect(s.controller.running()).toBe(true);
    s.controller.submit({ type: "approval_answer", decision: "reject" });
    await s.controller.idle();
    expect(s.saved().status).toBe("done");
  });

  it("with two asks waiting at once (read-only calls run together), an answer names its call", async () => {
    const reads = { tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }, { name: "read", arguments: { path: "test.js" } }] };
    const s = session([reads, finish("read both")], { rules: [{ tool: "read", action: "ask" }] });
    s.controller.submit({ type: "user_message", text: "read" });
    const first = await s.next("approval_requested");
    const second = await s.next("approval_requested");
    const ids = [first, second].map((e) => (e as { callId: string }).callId);
    expect(s.controller.submit({ type: "approval_answer", decision: "allow_once" })).toBe(`2 approvals wait (${ids.join(", ")}): name one with callId`);
    s.controller.submit({ type: "approval_answer", callId: ids[1], decision: "reject" });
    // The other still waits, and now it is the only one.
    s.controller.submit({ type: "approval_answer", decision: "allow_once" });
    await s.controller.idle();
    expect(results(s.events).map((r) => [r.callId, r.name, r.ok])).toEqual([
      [ids[0], "read", true],
      [ids[1], "read", false],
      [expect.any(String), "done", true],
    ]);
  });

  it("answers a question inline; the answer is the call's result at once", async () => {
    const s = session([askUser, finish("port chosen")]);
    s.controller.submit({ type: "user_message", text: "start the server" });
    const asked = await s.next("question_asked");
    expect(asked).toMatchObject({ question: "Which port?" });
    s.controller.submit({ type: "question_answer", answer: "8080" });
    await s.controller.idle();
    expect(results(s.events)[0]).toMatchObject({ name: "ask_user", ok: true, modelText: "The operator answered: 8080" });
    expect(s.saved().question).toMatchObject({ question: "Which port?", answer: "8080", delivered: true });
  });

  it("pauses what waits when the operator goes away, exactly as a run nobody answers, and drops the messages queued behind it", async () => {
    const s = session([rmBuild, finish("x")]);
    s.controller.submit({ type: "user_message", text: "clean" });
    s.controller.submit({ type: "user_message", text: "and then this" });
    await s.next("approval_requested");
    s.operator.detach();
    await s.controller.idle();
    const saved = s.saved();
    expect(saved.status).toBe("approval_required");
    expect(saved.pending?.request).toMatchObject({ summary: "bash: rm -rf build" });
    expect(saved.pending?.calls.map((c) => c.name)).toEqual(["bash"]);
    expect(s.ends.map((e) => e.outcome?.reason)).toEqual(["approval_required"]);
    expect(s.events.some((e) => e.type === "notice" && e.text === "message not sent (the session waits for an approval first): and then this")).toBe(true);
    expect(s.events.filter((e) => e.type === "user_message")).toHaveLength(1);
  });

  it("saves a question that waited when the operator went away, and the run ends waiting for the answer", async () => {
    const s = session([askUser, finish("x")]);
    s.controller.submit({ type: "user_message", text: "start" });
    await s.next("question_asked");
    s.operator.detach();
    await s.controller.idle();
    const saved = s.saved();
    expect(saved.status).toBe("input_required");
    expect(saved.question).toMatchObject({ question: "Which port?" });
    expect(saved.question?.answer).toBeUndefined();
    // The call has no result yet: `yuj answer` gives it one.
    expect(results(s.events)).toHaveLength(0);
  });

  it("with nobody attached from the start, pauses at once on an ask and on a question", async () => {
    const a = session([rmBuild, finish("x")], { attached: false });
    a.controller.submit({ type: "user_message", text: "clean" });
    await a.controller.idle();
    expect(a.saved().status).toBe("approval_required");
    await a.close();
    const q = session([askUser, finish("x")], { attached: false });
    q.controller.submit({ type: "user_message", text: "start" });
    await q.controller.idle();
    expect(q.saved()).toMatchObject({ status: "input_required", question: { question: "Which port?" } });
    expect(q.events.filter((e) => e.type === "question_asked")).toHaveLength(1);
  });

  it("cancel ends the turn; the session stays and takes the next message", async () => {
    const s = session([{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30" } }] }, finish("second")]);
    s.controller.submit({ type: "user_message", text: "wait" });
    await s.next("job_started");
    s.controller.submit({ type: "cancel" });
    await s.controller.idle();
    expect(s.saved()).toMatchObject({ status: "paused", lastReason: "cancelled" });
    s.controller.submit({ type: "user_message", text: "go on" });
    await s.controller.idle();
    expect(s.saved()).toMatchObject({ status: "done", lastMessage: "second" });
    expect(s.ends.map((e) => e.outcome?.reason)).toEqual(["cancelled", "done"]);
  });

  it("stop with a reason saves the run as failed with it, and takes no message after", async () => {
    const s = session([{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30" } }] }, finish("x")]);
    s.controller.submit({ type: "user_message", text: "wait" });
    await s.next("job_started");
    s.controller.stop({ code: "output_closed", message: "stdout closed; the run stopped" });
    await s.controller.idle();
    expect(s.saved()).toMatchObject({ status: "failed", lastReason: "error", lastMessage: "stdout closed; the run stopped" });
    expect(s.controller.submit({ type: "user_message", text: "more" })).toBe("the session is stopping; the message was not sent");
  });

  it("marks the session running while each run works, not only the first", async () => {
    const s = session([{ text: "one" }, { tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30" } }] }]);
    s.controller.submit({ type: "user_message", text: "first" });
    await s.controller.idle();
    expect(s.saved().status).toBe("done");
    s.controller.submit({ type: "user_message", text: "second" });
    await s.next("job_started");
    // Saved at the step before the command: a process killed now leaves an interrupted session, not a done one.
    expect(s.saved()).toMatchObject({ status: "running", pid: process.pid });
    s.controller.submit({ type: "cancel" });
    await s.controller.idle();
  });
});
