// The Chord command, job and question tools against what the Chord reference
// system pins in its own tests: real processes through the real dispatcher
// and the `chord` profile, checking the text the model reads.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = (tool: string, args: unknown) => chordCall(t, tool, args);
const jobIdIn = (text: string) => /\bj\d+\b/.exec(text)?.[0] ?? "";

describe("chord shell, as the reference pins it", () => {
  it("a command past its timeout says it timed out after the effective limit", async () => {
    const r = await call("shell", { command: "sleep 5", timeout_ms: 1000 });
    expect(r.ok, r.text).toBe(false);
    expect(r.text).toContain("timed out after 1s");
  });

  it("stdin is closed and not a terminal: read sees end of input at once", async () => {
    const started = Date.now();
    const r = await call("shell", {
      command: "printf 'stdin_tty='; test -t 0 && echo yes || echo no; printf 'read_result='; IFS= read -r x; printf 'status:%s value:%s\\n' \"$?\" \"$x\"",
    });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain("stdin_tty=no");
    expect(r.text).toContain("read_result=status:1 value:");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a bare read fails with exit code 1", async () => {
    const r = await call("shell", { command: "read x" });
    expect(r.ok, r.text).toBe(false);
    expect(r.text).toContain("exit code 1");
  });

  it("an interactive command is rejected by name before it runs", async () => {
    const r = await call("shell", { command: "git rebase -i HEAD~2" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("interactive command rejected");
    expect(r.text).toContain("git rebase -i");
  });

  it("a command killed by a signal names the signal", async () => {
    const r = await call("shell", { command: "kill -TERM $$" });
    expect(r.ok, r.text).toBe(false);
    expect(r.text).toContain("signal");
    expect(r.text).toContain("SIGTERM");
  });
});

describe("chord jobs, as the reference pins them", () => {
  it("an expired exit wait reports running and the job lives on", async () => {
    const started = await call("shell", { command: "printf first; sleep 30", run_in_background: true });
    const id = jobIdIn(started.text);
    const out = await call("job_output", { job_id: id, wait: "output" });
    expect(out.text).toContain("first");
    expect(out.text).toContain("[status: running]");
    const list = await call("job_list", {});
    expect(list.text).toContain(id);
  });

  it("an unknown wait value is refused", async () => {
    const r = await call("job_output", { job_id: "j1", wait: "forever" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("wait");
  });

  it("the second empty non-blocking read is a notice, the third is rejected automatically, a blocking wait clears it", async () => {
    const id = jobIdIn((await call("shell", { command: "sleep 30", run_in_background: true })).text);
    const first = await call("job_output", { job_id: id, wait: "none" });
    expect(first.text).not.toContain("[notice]");
    const second = await call("job_output", { job_id: id, wait: "none" });
    expect(second.text).toContain("[notice]");
    const third = await call("job_output", { job_id: id, wait: "none" });
    expect(third.ok).toBe(false);
    expect(third.text).toContain("rejected automatically");
  });

  it("job_kill of a running job reports the stop", async () => {
    const id = jobIdIn((await call("shell", { command: "sleep 30", run_in_background: true })).text);
    const r = await call("job_kill", { job_id: id, reason: "no longer needed" });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain(id);
    expect(r.text).toContain("no longer needed");
  });
});

const q = (n: number) => Array.from({ length: n }, (_, i) => ({ question: `Which ${i}?`, header: "Choice" }));

describe("chord question, as the reference pins it", () => {
  const answer = async () => "yes";

  it("one question object is accepted as a list of one", async () => {
    const r = await chordCall(t, "question", { questions: { question: "Which?", header: "Choice" } }, { ask: answer });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain('"answer":"yes"');
  });

  it("an empty call is refused", async () => {
    const r = await chordCall(t, "question", {}, { ask: answer });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("questions");
  });

  it("three questions are asked, four are refused", async () => {
    expect((await chordCall(t, "question", { questions: q(3) }, { ask: answer })).ok).toBe(true);
    const r = await chordCall(t, "question", { questions: q(4) }, { ask: answer });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("questions must contain 1 to 3 items");
  });

  it("a question over 8192 bytes is refused", async () => {
    const r = await chordCall(t, "question", { questions: [{ question: "x".repeat(8193), header: "Choice" }] }, { ask: answer });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("size limit exceeded");
  });

  it("more than 16 options are refused", async () => {
    const options = Array.from({ length: 17 }, (_, i) => ({ label: `Option ${i}`, description: "d" }));
    const r = await chordCall(t, "question", { questions: [{ question: "Which?", header: "Choice", options }] }, { ask: answer });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("size limit exceeded");
  });

  it("a missing header is named", async () => {
    const r = await chordCall(t, "question", { questions: [{ question: "Which?" }] }, { ask: answer });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("header");
  });
});
