import { afterEach, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import type { ApprovalAnswer } from "../../core/approvals/types.js";
import type { EventOf } from "../../core/events.js";
import { ApprovalPrompt, parseRule } from "../../components/prompts/ApprovalPrompt.js";
import { mount, press, rerender, unmountAll } from "../support/ink-act.js";

// A short pause, then one turn of the check phase: a slow render can make
// the timer fire before React's effects (which re-subscribe the key handler) ran.
const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");
/** The frame as one line of words: the box and the wrapping gone. */
const flat = (r: { lastFrame(): string | undefined }) => frame(r).replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ");

function request(over: Partial<EventOf<"approval_requested">> = {}): EventOf<"approval_requested"> {
  return {
    seq: 7,
    ts: "2026-01-01T00:00:00.000Z",
    sessionId: "s",
    agentId: "main",
    type: "approval_requested",
    callId: "c1",
    tool: "bash",
    summary: "rm -rf build",
    detail: "--- a/x\n+++ b/x\n-old\n+new\x1b[2J",
    reason: "rule ask bash rm *",
    rule: '{ tool = "bash", pattern = "rm -rf build", action = "allow" }',
    ...over,
  };
}

async function setup(req = request()) {
  const answers: ApprovalAnswer[] = [];
  const r = await mount(<ApprovalPrompt request={req} width={80} onAnswer={(a) => void answers.push(a)} />);
  const type = (...chunks: string[]) => press(r, ...chunks);
  return { r, answers, type };
}

afterEach(unmountAll);

describe("ApprovalPrompt", () => {
  it("shows the tool, summary, detail, reason, rule and keys", async () => {
    const { r } = await setup();
    const f = frame(r);
    for (const s of ["bash", "rm -rf build", "+new", "-old", "why: rule ask bash rm *", 'rule: { tool = "bash"', "[y/A] allow once", "[a/M] allow always", "[r/R] reject"]) {
      expect(f).toContain(s);
    }
    // The escape sequence in the detail is removed, never sent to the terminal.
    expect(r.lastFrame()).not.toContain("\x1b[2J");
  });

  it("cuts a long detail", async () => {
    const detail = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
    const { r } = await setup(request({ detail }));
    expect(frame(r)).toContain("line 13");
    expect(frame(r)).not.toContain("line 14");
    expect(frame(r)).toContain("… 26 more lines");
  });

  it("y allows once", async () => {
    const { answers, type } = await setup();
    await type("y");
    expect(answers).toEqual([{ decision: "allow_once" }]);
  });

  it("answers once even when the key repeats", async () => {
    const { answers, type } = await setup();
    await type("y", "y", "n");
    expect(answers).toEqual([{ decision: "allow_once" }]);
  });

  it("n and Esc reject", async () => {
    const a = await setup();
    await a.type("n");
    expect(a.answers).toEqual([{ decision: "reject" }]);
    await unmountAll();
    const b = await setup();
    await b.type("\x1b");
    expect(b.answers).toEqual([{ decision: "reject" }]);
  });

  it("r, a message and Enter reject with the message; Esc goes back", async () => {
    const { r, answers, type } = await setup();
    await type("r");
    expect(frame(r)).toContain("Reason for rejecting");
    await type("use ", "make clean", "\r");
    expect(answers).toEqual([{ decision: "reject_with_message", message: "use make clean" }]);
    await unmountAll();
    const b = await setup();
    await b.type("r", "\x1b");
    expect(frame(b.r)).toContain("allow once");
    expect(b.answers).toEqual([]);
  });

  it("a then Enter allows always in the session with the parsed rule", async () => {
    const { r, answers, type } = await setup();
    await type("a");
    expect(flat(r)).toContain('Will store { tool = "bash", pattern = "rm -rf build", action = "allow" } in this session');
    for (const where of ["session", "project", "user"]) expect(frame(r)).toContain(where);
    expect(answers).toEqual([]);
    await type("\r");
    expect(answers).toEqual([
      { decision: "allow_always", scope: "session", rule: { tool: "bash", pattern: "rm -rf build", action: "allow" } },
    ]);
  });

  it("a, Tab and Enter store the rule in the project config", async () => {
    const { r, answers, type } = await setup();
    await type("a", "\t");
    expect(flat(r)).toContain("./.yuj/config.toml");
    await type("\r");
    expect(answers).toEqual([
      { decision: "allow_always", scope: "project", rule: { tool: "bash", pattern: "rm -rf build", action: "allow" } },
    ]);
  });

  it("a then Esc goes back without answering", async () => {
    const { r, answers, type } = await setup();
    await type("a", "\x1b");
    expect(answers).toEqual([]);
    expect(frame(r)).toContain("allow once");
  });

  it("offers the broader rules, exact first, and stores the one picked where it is told", async () => {
    const rules = ["rm -f build.log", "rm -f *.log", "rm *"].map((pattern) => ({ pattern, rule: `{ tool = "bash", pattern = ${JSON.stringify(pattern)}, action = "allow" }` }));
    const { r, answers, type } = await setup(request({ summary: "rm -f build.log", rules }));
    await type("M");
    const f = frame(r);
    expect(f.indexOf("1. rm -f build.log")).toBeLessThan(f.indexOf("2. rm -f *.log"));
    expect(f.indexOf("2. rm -f *.log")).toBeLessThan(f.indexOf("3. rm *"));
    await type("j", "\t", "\t");
    expect(flat(r)).toContain('Will store { tool = "bash", pattern = "rm -f *.log", action = "allow" } in your user config');
    expect(answers).toEqual([]);
    await type("\r");
    expect(answers).toEqual([{ decision: "allow_always", scope: "user", rule: { tool: "bash", pattern: "rm -f *.log", action: "allow" } }]);
  });

  it("Enter alone does not approve", async () => {
    const { answers, type } = await setup();
    await type("\r");
    expect(answers).toEqual([]);
  });

  it("a new request starts over at the question", async () => {
    const answers: ApprovalAnswer[] = [];
    const r = await mount(<ApprovalPrompt request={request()} width={80} onAnswer={(a) => void answers.push(a)} />);
    await press(r, "a");
    await rerender(r, <ApprovalPrompt request={request({ callId: "c2" })} width={80} onAnswer={(a) => void answers.push(a)} />);
    await press(r, "\r");
    expect(answers).toEqual([]);
    expect(frame(r)).toContain("allow once");
  });

  it("hides allow-always when there is no rule to store", async () => {
    const { r, answers, type } = await setup(request({ rule: undefined }));
    expect(frame(r)).not.toContain("allow always");
    await type("a");
    expect(answers).toEqual([]);
  });
});

describe("parseRule", () => {
  it("reads tool, pattern and quoted characters; stores an allow rule", () => {
    expect(parseRule('{ tool = "edit", pattern = "src/\\"q\\".ts", action = "ask" }')).toEqual({
      tool: "edit",
      pattern: 'src/"q".ts',
      action: "allow",
    });
    expect(parseRule('{ tool = "web_fetch", action = "allow" }')).toEqual({ tool: "web_fetch", action: "allow" });
    expect(parseRule("nonsense")).toBeUndefined();
    expect(parseRule(undefined)).toBeUndefined();
  });
});
