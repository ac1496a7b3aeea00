// Tool-specific semantics, YOLO and measurement runs.

import { describe, expect, it } from "vitest";
import type { PolicyOptions } from "../../core/permissions/types.js";
import { action, bash, call, CHORD, decide, rule, shell, YUJ } from "./support.js";

const YOLO: PolicyOptions = { ...CHORD, yolo: true };
const MEASURE: PolicyOptions = { ...YUJ, measurement: true };

describe("question and done", () => {
  it("turns ask into allow for question (it asks the user itself)", () => {
    const d = decide(call("question", { questions: [] }), [rule("question", undefined, "ask")]);
    expect(d.action).toBe("allow");
    expect(d.reason).toMatch(/^allowed: ask is treated as allow for question \(approval required by rule/);
    expect(action(call("question"), [rule("*", undefined, "ask")])).toBe("allow");
    expect(action(call("question"), [rule("question", undefined, "deny")])).toBe("deny");
    expect(action(call("question"), [])).toBe("deny");
  });

  it.each([CHORD, YUJ])("makes done available on allow or ask, and denies it on deny", (opts) => {
    const tool = "done";
    expect(action(call(tool), [rule(tool, undefined, "allow")], opts)).toBe("allow");
    expect(action(call(tool), [rule(tool, undefined, "ask")], opts)).toBe("allow");
    expect(decide(call(tool), [rule(tool, undefined, "ask")], opts).reason).toContain(`ask only makes ${tool} available`);
    expect(action(call(tool), [rule(tool, undefined, "deny")], opts)).toBe("deny");
    expect(action(call(tool), [rule("*", undefined, "allow"), rule(tool, undefined, "deny")], opts)).toBe("deny");
  });

  it("leaves Yuj's ask_user to its rules: an ask asks", () => {
    expect(action(call("ask_user", { question: "x" }), [rule("ask_user", undefined, "ask")], YUJ)).toBe("ask");
  });
});

describe("YOLO", () => {
  it("turns asks into allows for ordinary tools", () => {
    const rules = [rule("*", undefined, "allow"), rule("shell", "rm *", "ask"), rule("delete", undefined, "ask")];
    const d = decide(shell("rm -rf build"), rules, YOLO);
    expect(d.action).toBe("allow");
    expect(d.reason).toMatch(/^allowed by YOLO, which skips the ask \(approval required by rule \{tool="shell", pattern="rm \*"/);
    expect(action(call("delete", { paths: ["a"] }), rules, YOLO)).toBe("allow");
    expect(action(call("todo_write", { todos: [] }), [rule("todo_write", undefined, "ask")], YOLO)).toBe("allow");
  });

  it("turns the Yuj approval gate's asks into allows", () => {
    expect(action(bash("rm -rf build"), [], { ...YUJ, yolo: true })).toBe("allow");
  });

  it("never turns a deny into an allow", () => {
    expect(action(shell("rm -rf /"), [rule("shell", "*", "allow"), rule("shell", "rm *", "deny")], YOLO)).toBe("deny");
    expect(action(shell("ls"), [], YOLO)).toBe("deny"); // chord default
  });

  it("does not let a broad * allow grant the finish tool", () => {
    expect(action(call("done"), [rule("*", undefined, "allow")], YOLO)).toBe("deny");
    expect(action(call("done"), [rule("*", "*", "allow")], YOLO)).toBe("deny");
    expect(action(call("done"), [rule("*", undefined, "allow")], CHORD)).toBe("allow"); // without YOLO it does
  });

  it("grants the finish tool by an explicit rule", () => {
    expect(action(call("done"), [rule("*", undefined, "allow"), rule("done", undefined, "allow")], YOLO)).toBe("allow");
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
