import { describe, expect, it } from "vitest";
import { hiddenTools } from "../../core/permissions/hidden.js";
import type { Rule } from "../../core/permissions/types.js";
import { CHORD, rule, YUJ } from "./support.js";

const TOOLS = ["shell", "read", "edit", "apply_patch", "write", "delete", "web_fetch", "question", "delegate", "cancel", "handoff", "done"];
const hidden = (rules: Rule[], opts = CHORD, tools = TOOLS) => [...hiddenTools(tools, rules, opts)].sort();

describe("hiddenTools", () => {
  it("hides a tool whose last name-matching rule is a wildcard deny", () => {
    const all = rule("*", undefined, "allow");
    expect(hidden([all, rule("web_fetch", undefined, "deny")])).toEqual(["web_fetch"]);
    expect(hidden([all, rule("web_fetch", "*", "deny")])).toEqual(["web_fetch"]);
    expect(hidden([all, rule("web_*", undefined, "deny")])).toEqual(["web_fetch"]);
    expect(hidden([all, rule("web_fetch", "evil.io", "deny")])).toEqual([]);
    expect(hidden([rule("web_fetch", undefined, "deny"), all])).toEqual([]);
    expect(hidden([all, rule("web_fetch", undefined, "deny"), rule("web_fetch", "x.io", "allow")])).toEqual([]);
    expect(hidden([all, rule("web_fetch", undefined, "ask")])).toEqual([]);
  });

  it("hides everything under a final * deny, on both surfaces", () => {
    expect(hidden([rule("*", undefined, "allow"), rule("*", undefined, "deny")])).toEqual([...TOOLS].sort());
    expect(hidden([rule("*", undefined, "deny")], YUJ, ["bash", "read", "done"])).toEqual(["bash", "done", "read"]);
  });

  it("hides a Chord tool no rule names (every call would be denied), but not on Yuj", () => {
    expect(hidden([rule("shell", "git *", "allow")], CHORD, ["shell", "read"])).toEqual(["read"]);
    expect(hidden([], YUJ, ["bash", "read", "done"])).toEqual([]);
  });

  it("follows the edit family coupling", () => {
    expect(hidden([rule("*", undefined, "allow"), rule("edit", undefined, "deny")])).toEqual(["apply_patch", "edit"]);
    expect(hidden([rule("*", undefined, "allow"), rule("edit", undefined, "deny"), rule("apply_patch", undefined, "allow")])).toEqual(["edit"]);
    expect(hidden([rule("*", undefined, "allow"), rule("patch", undefined, "deny")])).toEqual(["apply_patch", "edit"]);
  });

  it("hides done and handoff when denied, shows them on allow or ask", () => {
    const all = rule("*", undefined, "allow");
    expect(hidden([all, rule("done", undefined, "deny"), rule("handoff", "*", "deny")])).toEqual(["done", "handoff"]);
    expect(hidden([all, rule("done", undefined, "ask"), rule("handoff", undefined, "ask")])).toEqual([]);
  });

  it("hides cancel while delegate is denied everywhere", () => {
    const all = rule("*", undefined, "allow");
    expect(hidden([all, rule("delegate", undefined, "deny")])).toEqual(["cancel", "delegate"]);
    expect(hidden([all, rule("delegate", undefined, "deny"), rule("delegate", "reviewer", "allow")])).toEqual([]);
    expect(hidden([all, rule("delegate", "builder", "deny")])).toEqual([]);
  });

  it("under YOLO, hides protected tools that only a broad rule allowed", () => {
    const yolo = { ...CHORD, yolo: true };
    expect(hidden([rule("*", undefined, "allow")], yolo)).toEqual(["cancel", "delegate", "done", "handoff"]);
    expect(hidden([rule("*", undefined, "allow"), rule("done", undefined, "allow")], yolo)).toEqual(["cancel", "delegate", "handoff"]);
  });
});
