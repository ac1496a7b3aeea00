// Tool-specific semantics, YOLO and measurement runs.

import { describe, expect, it } from "vitest";
import type { PolicyOptions } from "../../core/permissions/types.js";
import { action, bash, call, CHORD, decide, rule, shell, YUJ } from "./support.js";

const YOLO: PolicyOptions = { ...CHORD, yolo: true };
const MEASURE: PolicyOptions = { ...YUJ, measurement: true };

describe("question, handoff, done", () => {
  it("turns ask into allow for question", () => {
    const d = decide(call("question", { questions: [] }), [rule("question", undefined, "ask")]);
    expect(d.action).toBe("allow");
    expect(d.reason).toMatch(/^allowed: ask is treated as allow for question \(approval required by rule/);
    expect(action(call("question"), [rule("*", undefined, "ask")])).toBe("allow");
    expect(action(call("question"), [rule("question", undefined, "deny")])).toBe("deny");
    expect(action(call("question"), [])).toBe("deny");
  });

  it.each(["handoff", "done"])("makes %s available on allow or ask, and denies it on deny", (tool) => {
    expect(action(call(tool), [rule(tool, undefined, "allow")])).toBe("allow");
    expect(action(call(tool), [rule(tool, undefined, "ask")])).toBe("allow");
    expect(decide(call(tool), [rule(tool, undefined, "ask")]).reason).toContain(`ask only makes ${tool} available`);
    expect(action(call(tool), [rule(tool, undefined, "deny")])).toBe("deny");
    expect(action(call(tool), [rule("*", undefined, "allow"), rule(tool, undefined, "deny")])).toBe("deny");
  });
});

describe("delegate and cancel", () => {
  it("denies cancel while delegate is denied everywhere", () => {
    const rules = [rule("*", undefined, "allow"), rule("delegate", undefined, "deny")];
    const d = decide(call("cancel", { target_task_id: "t1" }), rules);
    expect(d.action).toBe("deny");
    expect(d.reason).toBe('cancel is unavailable: delegate is denied by rule {tool="delegate", action="deny"}');
    expect(action(call("cancel"), [rule("*", undefined, "allow"), rule("delegate", "*", "deny")])).toBe("deny");
  });

  it("leaves cancel to its own rules while some delegation is allowed", () => {
    const rules = [rule("*", undefined, "allow"), rule("delegate", undefined, "deny"), rule("delegate", "reviewer", "allow")];
    expect(action(call("cancel"), rules)).toBe("allow");
    expect(action(call("cancel"), [...rules, rule("cancel", undefined, "ask")])).toBe("ask");
    expect(action(call("cancel"), [rule("delegate", undefined, "allow")])).toBe("deny"); // no cancel rule: chord default
  });

  it("counts a delegate no rule names as denied on Chord, not on Yuj", () => {
    expect(decide(call("cancel"), [rule("cancel", undefined, "allow")]).reason).toBe(
      "cancel is unavailable: no rule allows delegate (chord default: deny)",
    );
    expect(action(call("cancel"), [], YUJ)).toBe("allow");
  });
});

describe("YOLO", () => {
  it("turns asks into allows for ordinary tools", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "rm *", "ask"), rule("delete", undefined, "ask")];
    const d = decide(shell("rm -rf build"), rules, YOLO);
    expect(d.action).toBe("allow");
    expect(d.reason).toMatch(/^allowed by YOLO, which skips the ask \(approval required by rule \{tool="shell", pattern="rm \*"/);
    expect(action(call("delete", { paths: ["a"] }), rules, YOLO)).toBe("allow");
    expect(action(call("web_fetch", { url: "https://x.io" }), [rule("web_fetch", undefined, "ask")], YOLO)).toBe("allow");
  });

  it("turns the Yuj approval gate's asks into allows", () => {
    expect(action(bash("rm -rf build"), [], { ...YUJ, yolo: true })).toBe("allow");
  });

  it("never turns a deny into an allow", () => {
    expect(action(shell("rm -rf /"), [rule("shell", "*", "allow"), rule("shell", "rm *", "deny")], YOLO)).toBe("deny");
    expect(action(shell("ls"), [], YOLO)).toBe("deny"); // chord default
  });

  it.each(["done", "handoff", "delegate", "cancel"])("does not let a broad * allow grant %s", (tool) => {
    expect(action(call(tool), [rule("*", undefined, "allow")], YOLO)).toBe("deny");
    expect(action(call(tool), [rule("*", "*", "allow")], YOLO)).toBe("deny");
    expect(action(call(tool), [rule("*", undefined, "allow")], CHORD)).toBe("allow"); // without YOLO it does
  });

  it("grants the protected tools by explicit rules", () => {
    const rules = [rule("*", undefined, "allow"), rule("done", undefined, "allow"), rule("handoff", undefined, "allow")];
    expect(action(call("done"), rules, YOLO)).toBe("allow");
    expect(action(call("handoff"), rules, YOLO)).toBe("allow");
    const delegation = [rule("delegate", undefined, "allow"), rule("cancel", undefined, "allow")];
    expect(action(call("delegate", { agent_type: "x" }), delegation, YOLO)).toBe("allow");
    expect(action(call("cancel"), delegation, YOLO)).toBe("allow");
  });

  it("keeps asks on delegate and cancel", () => {
    const rules = [rule("delegate", undefined, "ask"), rule("cancel", undefined, "ask")];
    expect(action(call("delegate", { agent_type: "x" }), rules, YOLO)).toBe("ask");
    expect(action(call("cancel"), rules, YOLO)).toBe("ask");
  });

  it("denies cancel when only a broad rule would allow delegate", () => {
    expect(action(call("cancel"), [rule("*", undefined, "allow"), rule("cancel", undefined, "allow")], YOLO)).toBe("deny");
  });

  it("still lets a broad deny refuse a protected tool", () => {
    expect(action(call("done"), [rule("done", undefined, "allow"), rule("*", undefined, "deny")], YOLO)).toBe("deny");
  });
});

describe("measurement runs", () => {
  it("turn every ask into a deny", () => {
    const d = decide(bash("rm -rf build"), [], MEASURE);
    expect(d.action).toBe("deny");
    expect(d.reason).toMatch(/^denied: measurement runs treat ask as deny \(destructive file deletion via rm/);
    expect(action(bash("make"), [rule("bash", undefined, "ask")], MEASURE)).toBe("deny");
    expect(action(bash("make"), [rule("bash", undefined, "allow")], MEASURE)).toBe("allow");
    expect(action(bash("ls"), [], MEASURE)).toBe("allow");
  });

  it("leave the ask→allow tools alone", () => {
    expect(action(call("done"), [rule("done", undefined, "ask")], MEASURE)).toBe("allow");
  });
});
